/**
 * Off-heap memory for RDMA: page-aligned native memory and memory-mapped files with owned, reference-counted
 * lifetimes ({@link io.rdmareactive.ring.OffHeapMemory}), Agrona ring buffers laid over that memory, and the
 * position arithmetic that Agrona lacks for a ring mirrored into a remote peer.
 *
 * <p>This module sees Agrona and the JDK only. Nothing here knows about providers, protocols or Reactor.
 */
package io.rdmareactive.ring;
