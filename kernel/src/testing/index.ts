export { startTestHost, type TestHost, type TestClient, type TestHostOptions, type Backend } from './host.js';
export { postgresUnavailableReason, createTempDatabase, TEST_PG_URL } from './postgres.js';
export { requireToolchain, onEachBackend } from './matrix.js';
