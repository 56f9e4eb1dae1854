/** JMH benchmarks of the wire protocol's flyweights. */
package io.rdmareactive.perf.protocol;
