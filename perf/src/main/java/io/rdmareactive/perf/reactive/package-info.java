/** JMH benchmarks of the {@code Flux} bridge, next to the raw SPI path. */
package io.rdmareactive.perf.reactive;
