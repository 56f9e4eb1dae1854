package io.rdmareactive.micronaut.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import io.micronaut.context.exceptions.ConfigurationException;
import io.rdmareactive.RdmaDefaults;

/**
 * {@code rdma.servers.<name>.*}: a server that serves the {@link io.rdmareactive.micronaut.RdmaChannel} methods of the
 * {@link io.rdmareactive.micronaut.RdmaListener} beans that name it; its properties are those of
 * {@link RdmaEndpointConfiguration}, and the limits on the connections it serves and the handshakes it runs at once. Wrong values fail at startup with a {@link ConfigurationException} naming the
 * key.
 */
@EachProperty(value = "rdma.servers", primary = "default")
public class RdmaServerConfiguration extends RdmaEndpointConfiguration {

    private int maxConnections = RdmaDefaults.MAX_CONNECTIONS;
    private int maxPendingHandshakes = RdmaDefaults.MAX_PENDING_HANDSHAKES;

    /** @param name the {@code <name>} of {@code rdma.servers.<name>.*} */
    public RdmaServerConfiguration(@Parameter final String name) {
        super("rdma.servers", "server", name);
    }

    /** @return {@code rdma.servers.<name>.max-connections}: the most connections it serves at once (default 1024) */
    public int getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(final int maxConnections) {
        this.maxConnections = ConfigChecks.positive(key("max-connections"), maxConnections);
    }

    /**
     * @return {@code rdma.servers.<name>.max-pending-handshakes}: the most handshakes it runs at once (default 64); a
     * client beyond it is refused at once and may retry
     */
    public int getMaxPendingHandshakes() {
        return maxPendingHandshakes;
    }

    public void setMaxPendingHandshakes(final int maxPendingHandshakes) {
        this.maxPendingHandshakes = ConfigChecks.positive(key("max-pending-handshakes"), maxPendingHandshakes);
    }
}
