/** Network helpers shared by the REST server and the parser service (no project imports). */
export { isLoopbackHost } from './loopback';
