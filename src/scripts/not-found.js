// The not-found page records which address a visitor tried, for whoever reads the console.
console.error('404 Error: User attempted to access non-existent route:', location.pathname);
