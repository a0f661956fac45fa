// Imported first by every entry point: React picks its production build when it is first loaded,
// which renders several times faster than the development build. Tests keep their own NODE_ENV.
process.env.NODE_ENV ??= 'production';
