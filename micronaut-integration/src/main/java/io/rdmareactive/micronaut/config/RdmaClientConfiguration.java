package io.rdmareactive.micronaut.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import io.micronaut.context.exceptions.ConfigurationException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code rdma.clients.<name>.*}: the connection that {@link io.rdmareactive.micronaut.RdmaClient} interfaces naming it
 * call through. It connects at startup (after this application's own servers are bound) and again, with backoff,
 * whenever the connection drops. Wrong values fail at startup with a {@link ConfigurationException} naming the key.
 */
@EachProperty(value = "rdma.clients", primary = "default")
public class RdmaClientConfiguration {

    private final String name;
    private String address;
    private String provider;
    private Path directory;
    private int streams = 16;
    private int ringCapacity = 64 * 1024;
    private int maxMessageLength = 16 * 1024 * 1024;
    private int prefetch = 256;
    private String idleStrategy;
    private Duration keepalive = Duration.ofSeconds(1);
    private Duration livenessTimeout = Duration.ofSeconds(5);
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration reconnectMinBackoff = Duration.ofMillis(100);
    private Duration reconnectMaxBackoff = Duration.ofSeconds(5);

    /** @param name the {@code <name>} of {@code rdma.clients.<name>.*} */
    public RdmaClientConfiguration(@Parameter final String name) {
        this.name = name;
    }

    /** @return this client's name, the {@code <name>} of {@code rdma.clients.<name>.*} */
    public String getName() {
        return name;
    }

    /** @return {@code rdma.clients.<name>.address}: the server it connects to (shm: a name, shared by both sides) */
    public Optional<String> getAddress() {
        return Optional.ofNullable(address);
    }

    public void setAddress(final String address) {
        if (address == null || address.isBlank()) {
            throw new ConfigurationException(key("address") + " must not be empty");
        }
        this.address = address;
    }

    /** @return {@code rdma.clients.<name>.provider}: overrides {@code rdma.provider} for this client */
    public Optional<String> getProvider() {
        return Optional.ofNullable(provider);
    }

    public void setProvider(final String provider) {
        this.provider = RdmaConfiguration.checkProvider(key("provider"), provider);
    }

    /** @return {@code rdma.clients.<name>.directory}: overrides {@code rdma.directory} for this client */
    public Optional<Path> getDirectory() {
        return Optional.ofNullable(directory);
    }

    public void setDirectory(final Path directory) {
        this.directory = directory;
    }

    /** @return {@code rdma.clients.<name>.streams}: streams of the connection, so at most this many calls at once (less one) (default 16) */
    public int getStreams() {
        return streams;
    }

    public void setStreams(final int streams) {
        this.streams = ConfigChecks.positive(key("streams"), streams);
    }

    /** @return {@code rdma.clients.<name>.ring-capacity}: bytes of each stream ring, each way (a power of two, default 65536) */
    public int getRingCapacity() {
        return ringCapacity;
    }

    public void setRingCapacity(final int ringCapacity) {
        this.ringCapacity = ConfigChecks.powerOfTwo(key("ring-capacity"), ringCapacity, 1024);
    }

    /** @return {@code rdma.clients.<name>.max-message-length}: the largest message, in bytes (default 16 MiB) */
    public int getMaxMessageLength() {
        return maxMessageLength;
    }

    public void setMaxMessageLength(final int maxMessageLength) {
        this.maxMessageLength = ConfigChecks.positive(key("max-message-length"), maxMessageLength);
    }

    /** @return {@code rdma.clients.<name>.prefetch}: the most messages granted to the peer ahead of consumption (default 256) */
    public int getPrefetch() {
        return prefetch;
    }

    public void setPrefetch(final int prefetch) {
        this.prefetch = ConfigChecks.positive(key("prefetch"), prefetch);
    }

    /** @return {@code rdma.clients.<name>.idle-strategy}: overrides {@code rdma.idle-strategy} for this client */
    public Optional<String> getIdleStrategy() {
        return Optional.ofNullable(idleStrategy);
    }

    public void setIdleStrategy(final String idleStrategy) {
        this.idleStrategy = ConfigChecks.idleStrategy(key("idle-strategy"), idleStrategy);
    }

    /** @return {@code rdma.clients.<name>.keepalive}: how often an idle connection proves it is alive (default 1s) */
    public Duration getKeepalive() {
        return keepalive;
    }

    public void setKeepalive(final Duration keepalive) {
        this.keepalive = ConfigChecks.positive(key("keepalive"), keepalive);
    }

    /** @return {@code rdma.clients.<name>.liveness-timeout}: how long a silent peer is tolerated (default 5s) */
    public Duration getLivenessTimeout() {
        return livenessTimeout;
    }

    public void setLivenessTimeout(final Duration livenessTimeout) {
        this.livenessTimeout = ConfigChecks.positive(key("liveness-timeout"), livenessTimeout);
    }

    /**
     * @param property a property of this client, e.g. {@code address}
     * @return its full key, e.g. {@code rdma.clients.<name>.address}, for messages
     */
    public String key(final String property) {
        return "rdma.clients." + name + "." + property;
    }

    /** @return the address, or a {@link ConfigurationException} naming the key when it is missing */
    public String requireAddress() {
        if (address == null) {
            throw new ConfigurationException(key("address") + " is not set: client '" + name + "' needs an address");
        }
        return address;
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
