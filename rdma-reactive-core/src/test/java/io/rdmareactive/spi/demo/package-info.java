/**
 * A runnable demonstration of the provider SPI: {@link io.rdmareactive.spi.demo.SpiPingPong}, two processes
 * exchanging RDMA WRITE WITH IMMEDIATE messages and printing round-trip percentiles. It uses only the
 * {@link io.rdmareactive.spi} package, as the protocol layer does. {@link io.rdmareactive.spi.demo.ChildJvmCommand}
 * builds the command line of the second process, with the first one's JVM options (the core's tests that start
 * other JVMs use it too). Test sources, not the library's jar: {@code ./mvnw -q -pl rdma-reactive-core -am -Pdemo
 * -DskipTests package} runs the demo from the test class path, as the Soft-RoCE guest does.
 */
package io.rdmareactive.spi.demo;
