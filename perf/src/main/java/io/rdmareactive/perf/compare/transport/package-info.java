/**
 * The transports the comparison drives, behind one small interface: a
 * {@link io.rdmareactive.perf.compare.transport.Transport} opens a
 * {@link io.rdmareactive.perf.compare.transport.Session} of one or several streams, whose server side either echoes
 * every message or hands it to a consumer, and whose client side is a
 * {@link io.rdmareactive.perf.compare.transport.Link} per stream (offer a message, poll for what came back).
 * Both sides of every transport live in the comparison's JVM, on their own threads.
 */
package io.rdmareactive.perf.compare.transport;
