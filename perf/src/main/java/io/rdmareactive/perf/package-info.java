/**
 * The perf suite: JMH benchmarks, compiled and packaged into {@code perf/target/benchmarks.jar} by the normal build and
 * never run by it. Each area has a package of its own ({@code codec} for the codecs); the commands and this machine's
 * figures are in {@code docs/}.
 */
package io.rdmareactive.perf;
