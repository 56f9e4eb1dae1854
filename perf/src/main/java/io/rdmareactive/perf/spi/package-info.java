/** JMH benchmarks of the provider SPI itself (the raw path under the protocol). */
package io.rdmareactive.perf.spi;
