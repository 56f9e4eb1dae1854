/**
 * The {@code rdma} health indicator, active only when the application has micronaut-management (an optional
 * dependency of this module) and {@code endpoints.health.rdma.enabled} is not false.
 */
package io.rdmareactive.micronaut.health;
