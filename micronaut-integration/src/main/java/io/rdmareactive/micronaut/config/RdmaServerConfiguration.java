package io.rdmareactive.micronaut.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import io.micronaut.context.exceptions.ConfigurationException;

/**
 * {@code rdma.servers.<name>.*}: a server that serves the {@link io.rdmareactive.micronaut.RdmaChannel} methods of the
 * {@link io.rdmareactive.micronaut.RdmaListener} beans that name it; its properties are those of
 * {@link RdmaEndpointConfiguration}. Wrong values fail at startup with a {@link ConfigurationException} naming the
 * key.
 */
@EachProperty(value = "rdma.servers", primary = "default")
public class RdmaServerConfiguration extends RdmaEndpointConfiguration {

    /** @param name the {@code <name>} of {@code rdma.servers.<name>.*} */
    public RdmaServerConfiguration(@Parameter final String name) {
        super("rdma.servers", "server", name);
    }
}
