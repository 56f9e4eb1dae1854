/**
 * The transport comparison ({@code compare}): rdma-reactive (raw SPI and Flux API, shared memory and verbs) side by
 * side with Aeron IPC, Aeron UDP and Reactor Netty TCP, in one JVM and one run; ping-pong round trips (closed loop
 * and fixed rate, corrected for coordinated omission), throughput beside a memcpy baseline, CPU and allocation per
 * message, backpressure; for rdma-reactive's public API alone, request-response (one and N calls in flight) and many
 * connections to one server (round trips, threads, resident memory); results.json, report.html with XChart plots and
 * the environment. Entry point: {@link
 * io.rdmareactive.perf.compare.CompareCommand}; see docs/perf.md.
 */
package io.rdmareactive.perf.compare;
