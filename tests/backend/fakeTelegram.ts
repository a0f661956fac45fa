// The fake Telegram lives in tools/, shared by the tests and the benchmark (bench/delivery.ts).
export * from '../../tools/fakeTelegram.js';
