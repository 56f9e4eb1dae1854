/**
 * Configuration: {@code rdma.*} ({@link io.rdmareactive.micronaut.config.RdmaConfiguration}), the named servers
 * {@code rdma.servers.<name>.*} and clients {@code rdma.clients.<name>.*}. Every setter checks its value and fails
 * with a {@link io.micronaut.context.exceptions.ConfigurationException} that names the key, so that a wrong value
 * stops the application at startup rather than at the first call.
 */
package io.rdmareactive.micronaut.config;
