/**
 * A runnable demonstration of the provider SPI: {@link io.rdmareactive.spi.demo.SpiPingPong}, two processes
 * exchanging RDMA WRITE WITH IMMEDIATE messages and printing round-trip percentiles, and
 * {@link io.rdmareactive.spi.demo.SpiRoundTrip}, the skeleton docs/providers.md quotes: one such write between two
 * devices of one process, which {@code SpiRoundTripTest} runs. They use only the
 * {@link io.rdmareactive.spi} package, as the protocol layer does; the demo's second process is started with the first
 * one's JVM options by the launcher every test uses ({@code io.rdmareactive.testsupport.ChildJvmLauncher}, in the
 * test-support module). Test sources, not the library's jar: {@code ./mvnw -q -pl rdma-reactive-core -am -Pdemo
 * -DskipTests package} runs the demo from the test class path, as the Soft-RoCE guest does.
 */
package io.rdmareactive.spi.demo;
