package io.rdmareactive.micronaut.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import io.micronaut.context.exceptions.ConfigurationException;
import io.rdmareactive.RdmaDefaults;
import java.time.Duration;

/**
 * {@code rdma.clients.<name>.*}: the connection that {@link io.rdmareactive.micronaut.RdmaClient} interfaces naming it
 * call through; besides the properties of {@link RdmaEndpointConfiguration}, its timeouts and reconnection backoff.
 * It connects at startup (after this application's own servers are bound) and again, with backoff,
 * whenever the connection drops. Wrong values fail at startup with a {@link ConfigurationException} naming the key.
 */
@EachProperty(value = "rdma.clients", primary = "default")
public class RdmaClientConfiguration extends RdmaEndpointConfiguration {

    private Duration requestTimeout = RdmaDefaults.REQUEST_TIMEOUT;
    private Duration connectTimeout = RdmaDefaults.CONNECT_TIMEOUT;
    private Duration reconnectMinBackoff = Duration.ofMillis(100);
    private Duration reconnectMaxBackoff = Duration.ofSeconds(5);

    /** @param name the {@code <name>} of {@code rdma.clients.<name>.*} */
    public RdmaClientConfiguration(@Parameter final String name) {
        super("rdma.clients", "client", name);
    }

    /** @return {@code rdma.clients.<name>.request-timeout}: how long a request/response call waits (default 30s) */
    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(final Duration requestTimeout) {
        this.requestTimeout = ConfigChecks.positive(key("request-timeout"), requestTimeout);
    }

    /**
     * @return {@code rdma.clients.<name>.connect-timeout}: how long one connection attempt waits, and how long a call
     * waits for a connection (default 10s)
     */
    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(final Duration connectTimeout) {
        this.connectTimeout = ConfigChecks.positive(key("connect-timeout"), connectTimeout);
    }

    /** @return {@code rdma.clients.<name>.reconnect-min-backoff}: the first wait before connecting again (default 100ms) */
    public Duration getReconnectMinBackoff() {
        return reconnectMinBackoff;
    }

    public void setReconnectMinBackoff(final Duration reconnectMinBackoff) {
        this.reconnectMinBackoff = ConfigChecks.positive(key("reconnect-min-backoff"), reconnectMinBackoff);
    }

    /** @return {@code rdma.clients.<name>.reconnect-max-backoff}: the longest wait between attempts (default 5s) */
    public Duration getReconnectMaxBackoff() {
        return reconnectMaxBackoff;
    }

    public void setReconnectMaxBackoff(final Duration reconnectMaxBackoff) {
        this.reconnectMaxBackoff = ConfigChecks.positive(key("reconnect-max-backoff"), reconnectMaxBackoff);
    }
}
