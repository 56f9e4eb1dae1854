package io.rdmareactive.micronaut.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import io.micronaut.context.exceptions.ConfigurationException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code rdma.servers.<name>.*}: a server that serves the {@link io.rdmareactive.micronaut.RdmaChannel} methods of the
 * {@link io.rdmareactive.micronaut.RdmaListener} beans that name it. Wrong values fail at startup with a
 * {@link ConfigurationException} naming the key.
 */
@EachProperty(value = "rdma.servers", primary = "default")
public class RdmaServerConfiguration {

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

    /** @param name the {@code <name>} of {@code rdma.servers.<name>.*} */
    public RdmaServerConfiguration(@Parameter final String name) {
        this.name = name;
    }

    /** @return this server's name, the {@code <name>} of {@code rdma.servers.<name>.*} */
    public String getName() {
        return name;
    }

    /** @return {@code rdma.servers.<name>.address}: where it listens (shm: a name, shared by both sides) */
    public Optional<String> getAddress() {
        return Optional.ofNullable(address);
    }

    public void setAddress(final String address) {
        if (address == null || address.isBlank()) {
            throw new ConfigurationException(key("address") + " must not be empty");
        }
        this.address = address;
    }

    /** @return {@code rdma.servers.<name>.provider}: overrides {@code rdma.provider} for this server */
    public Optional<String> getProvider() {
        return Optional.ofNullable(provider);
    }

    public void setProvider(final String provider) {
        this.provider = RdmaConfiguration.checkProvider(key("provider"), provider);
    }

    /** @return {@code rdma.servers.<name>.directory}: overrides {@code rdma.directory} for this server */
    public Optional<Path> getDirectory() {
        return Optional.ofNullable(directory);
    }

    public void setDirectory(final Path directory) {
        this.directory = directory;
    }

    /** @return {@code rdma.servers.<name>.streams}: the most streams one client connection may open (the control stream included) (default 16) */
    public int getStreams() {
        return streams;
    }

    public void setStreams(final int streams) {
        this.streams = ConfigChecks.positive(key("streams"), streams);
    }

    /** @return {@code rdma.servers.<name>.ring-capacity}: the largest stream ring a client may ask for, in bytes (a power of two, default 65536) */
    public int getRingCapacity() {
        return ringCapacity;
    }

    public void setRingCapacity(final int ringCapacity) {
        this.ringCapacity = ConfigChecks.powerOfTwo(key("ring-capacity"), ringCapacity, 1024);
    }

    /** @return {@code rdma.servers.<name>.max-message-length}: the largest message, in bytes (default 16 MiB) */
    public int getMaxMessageLength() {
        return maxMessageLength;
    }

    public void setMaxMessageLength(final int maxMessageLength) {
        this.maxMessageLength = ConfigChecks.positive(key("max-message-length"), maxMessageLength);
    }

    /** @return {@code rdma.servers.<name>.prefetch}: the most messages granted to the peer ahead of consumption (default 256) */
    public int getPrefetch() {
        return prefetch;
    }

    public void setPrefetch(final int prefetch) {
        this.prefetch = ConfigChecks.positive(key("prefetch"), prefetch);
    }

    /** @return {@code rdma.servers.<name>.idle-strategy}: overrides {@code rdma.idle-strategy} for this server */
    public Optional<String> getIdleStrategy() {
        return Optional.ofNullable(idleStrategy);
    }

    public void setIdleStrategy(final String idleStrategy) {
        this.idleStrategy = ConfigChecks.idleStrategy(key("idle-strategy"), idleStrategy);
    }

    /** @return {@code rdma.servers.<name>.keepalive}: how often an idle connection proves it is alive (default 1s) */
    public Duration getKeepalive() {
        return keepalive;
    }

    public void setKeepalive(final Duration keepalive) {
        this.keepalive = ConfigChecks.positive(key("keepalive"), keepalive);
    }

    /** @return {@code rdma.servers.<name>.liveness-timeout}: how long a silent peer is tolerated (default 5s) */
    public Duration getLivenessTimeout() {
        return livenessTimeout;
    }

    public void setLivenessTimeout(final Duration livenessTimeout) {
        this.livenessTimeout = ConfigChecks.positive(key("liveness-timeout"), livenessTimeout);
    }

    /**
     * @param property a property of this server, e.g. {@code address}
     * @return its full key, e.g. {@code rdma.servers.<name>.address}, for messages
     */
    public String key(final String property) {
        return "rdma.servers." + name + "." + property;
    }

    /** @return the address, or a {@link ConfigurationException} naming the key when it is missing */
    public String requireAddress() {
        if (address == null) {
            throw new ConfigurationException(key("address") + " is not set: server '" + name + "' needs an address");
        }
        return address;
    }
}
