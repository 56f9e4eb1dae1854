/**
 * Micrometer meters from the drivers' counters, active only when the application has micronaut-micrometer-core (an
 * optional dependency of this module) and {@code micronaut.metrics.binders.rdma.enabled} is not false.
 */
package io.rdmareactive.micronaut.metrics;
