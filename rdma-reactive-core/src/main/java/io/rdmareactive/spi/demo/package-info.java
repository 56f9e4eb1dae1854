/**
 * A runnable demonstration of the provider SPI: {@link io.rdmareactive.spi.demo.SpiPingPong}, two processes
 * exchanging RDMA WRITE WITH IMMEDIATE messages and printing round-trip percentiles. It uses only the
 * {@link io.rdmareactive.spi} package, as the protocol layer does.
 */
package io.rdmareactive.spi.demo;
