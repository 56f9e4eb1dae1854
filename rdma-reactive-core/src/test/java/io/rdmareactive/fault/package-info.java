/**
 * Fault injection under the provider SPI: {@link io.rdmareactive.fault.FaultInjectingDevice} wraps any
 * {@link io.rdmareactive.spi.RdmaDevice} (shared memory or verbs) and, as a seeded
 * {@link io.rdmareactive.fault.FaultInjector} decides, drops, delays or reorders completions, fails posts, forces a
 * queue pair into the error state or withholds the credit a receiver writes. The same seed injects the same fault
 * at the same point, so that a failing case replays exactly. {@link io.rdmareactive.fault.FaultInjectingProvider}
 * ({@code fault-shm}) arms a fault for the next shared-memory device the public API opens, so that a fault can strike
 * a connection of {@code RdmaClient} ({@link io.rdmareactive.fault.FaultReconnectTest}).
 */
package io.rdmareactive.fault;
