/** JMH benchmarks of the off-heap rings of {@code ring-buffers}. */
package io.rdmareactive.perf.ring;
