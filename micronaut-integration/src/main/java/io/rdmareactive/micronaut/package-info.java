/**
 * RDMA services by annotation, for Micronaut 4: {@link io.rdmareactive.micronaut.RdmaListener} beans whose
 * {@link io.rdmareactive.micronaut.RdmaChannel} methods serve streams, {@link io.rdmareactive.micronaut.RdmaClient}
 * interfaces that call them, the error strategy and exception handler of listeners. A listener's demand is the
 * credit the remote client's sender gets, so a slow listener slows the remote producer and nothing is dropped.
 * Configuration lives in {@link io.rdmareactive.micronaut.config}; everything in {@code internal} may change.
 * See {@code docs/micronaut.md}.
 */
package io.rdmareactive.micronaut;
