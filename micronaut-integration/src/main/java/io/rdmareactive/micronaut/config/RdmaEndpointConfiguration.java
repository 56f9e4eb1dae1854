package io.rdmareactive.micronaut.config;

import io.micronaut.context.exceptions.ConfigurationException;
import io.rdmareactive.RdmaDefaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What a named server ({@code rdma.servers.<name>.*}) and a named client ({@code rdma.clients.<name>.*}) both
 * configure: address, provider, directory, streams and rings, message size, prefetch, idle strategy, liveness, the
 * secret of the authenticated handshake and the wiretap.
 * Every setter checks its value and throws a {@link ConfigurationException} naming the full key.
 */
public abstract class RdmaEndpointConfiguration {

    private final String prefix;
    private final String role;
    private final String name;
    private String address;
    private String provider;
    private Path directory;
    private int streams = RdmaDefaults.STREAMS;
    private int ringCapacity = RdmaDefaults.RING_CAPACITY;
    private int maxMessageLength = RdmaDefaults.MAX_MESSAGE_LENGTH;
    private int prefetch = RdmaDefaults.PREFETCH;
    private String idleStrategy;
    private Duration keepalive = RdmaDefaults.KEEPALIVE;
    private Duration livenessTimeout = RdmaDefaults.LIVENESS_TIMEOUT;
    private byte[] secret;
    private boolean wiretap;
    private String wiretapCategory;

    /**
     * @param prefix the properties' prefix, {@code rdma.servers} or {@code rdma.clients}
     * @param role   {@code server} or {@code client}, for messages
     * @param name   the {@code <name>} of {@code <prefix>.<name>.*}
     */
    RdmaEndpointConfiguration(final String prefix, final String role, final String name) {
        this.prefix = prefix;
        this.role = role;
        this.name = name;
    }

    /** @return the {@code <name>} of {@code rdma.servers.<name>.*} / {@code rdma.clients.<name>.*} */
    public String getName() {
        return name;
    }

    /**
     * @return {@code <prefix>.<name>.address}: where a server listens, or the server a client connects to (shm: a
     * name both sides share)
     */
    public Optional<String> getAddress() {
        return Optional.ofNullable(address);
    }

    public void setAddress(final String address) {
        if (address == null || address.isBlank()) {
            throw new ConfigurationException(key("address") + " must not be empty");
        }
        this.address = address;
    }

    /** @return {@code <prefix>.<name>.provider}: overrides {@code rdma.provider} for this server or client */
    public Optional<String> getProvider() {
        return Optional.ofNullable(provider);
    }

    public void setProvider(final String provider) {
        this.provider = RdmaConfiguration.checkProvider(key("provider"), provider);
    }

    /** @return {@code <prefix>.<name>.directory}: overrides {@code rdma.directory} for this server or client */
    public Optional<Path> getDirectory() {
        return Optional.ofNullable(directory);
    }

    public void setDirectory(final Path directory) {
        this.directory = directory;
    }

    /**
     * @return {@code <prefix>.<name>.streams} (default 16): on a server, the most streams one client connection may
     * open; on a client, the streams of its connection, so at most {@code (streams - 2) / 2} calls at once
     */
    public int getStreams() {
        return streams;
    }

    public void setStreams(final int streams) {
        this.streams = ConfigChecks.positive(key("streams"), streams);
    }

    /**
     * @return {@code <prefix>.<name>.ring-capacity} (a power of two, default 65536): on a server, the largest stream
     * ring a client may ask for; on a client, the bytes of each stream ring, each way
     */
    public int getRingCapacity() {
        return ringCapacity;
    }

    public void setRingCapacity(final int ringCapacity) {
        this.ringCapacity = ConfigChecks.powerOfTwo(key("ring-capacity"), ringCapacity, 1024);
    }

    /** @return {@code <prefix>.<name>.max-message-length}: the largest message, in bytes (default 16 MiB) */
    public int getMaxMessageLength() {
        return maxMessageLength;
    }

    public void setMaxMessageLength(final int maxMessageLength) {
        this.maxMessageLength = ConfigChecks.positive(key("max-message-length"), maxMessageLength);
    }

    /** @return {@code <prefix>.<name>.prefetch}: the most messages granted to the peer ahead of consumption (default 256) */
    public int getPrefetch() {
        return prefetch;
    }

    public void setPrefetch(final int prefetch) {
        this.prefetch = ConfigChecks.positive(key("prefetch"), prefetch);
    }

    /** @return {@code <prefix>.<name>.idle-strategy}: overrides {@code rdma.idle-strategy} for this server or client */
    public Optional<String> getIdleStrategy() {
        return Optional.ofNullable(idleStrategy);
    }

    public void setIdleStrategy(final String idleStrategy) {
        this.idleStrategy = ConfigChecks.idleStrategy(key("idle-strategy"), idleStrategy);
    }

    /** @return {@code <prefix>.<name>.keepalive}: how often an idle connection proves it is alive (default 1s) */
    public Duration getKeepalive() {
        return keepalive;
    }

    public void setKeepalive(final Duration keepalive) {
        this.keepalive = ConfigChecks.positive(key("keepalive"), keepalive);
    }

    /** @return {@code <prefix>.<name>.liveness-timeout}: how long a silent peer is tolerated (default 5s) */
    public Duration getLivenessTimeout() {
        return livenessTimeout;
    }

    public void setLivenessTimeout(final Duration livenessTimeout) {
        this.livenessTimeout = ConfigChecks.positive(key("liveness-timeout"), livenessTimeout);
    }

    /**
     * @return {@code <prefix>.<name>.secret}: the shared secret of the authenticated handshake, decoded (a copy), or
     * empty for none (the default). A server with a secret serves only clients with the same one; a client with one
     * connects only to a server with the same one. See docs/security.md.
     */
    public Optional<byte[]> getSecret() {
        return Optional.ofNullable(secret).map(byte[]::clone);
    }

    /**
     * @param secret the secret in base64 (at least 16 bytes once decoded; e.g. {@code openssl rand -base64 32}), best
     *               given through an environment variable or a secrets file rather than written in the configuration
     */
    public void setSecret(final String secret) {
        this.secret = ConfigChecks.secret(key("secret"), secret);
    }

    /**
     * @return {@code <prefix>.<name>.wiretap}: whether every frame this server's or client's connections send and
     * receive is logged, one DEBUG line each, under {@link #getWiretapCategory()} (default false); the core builders'
     * {@code wiretap}, for debugging
     */
    public boolean isWiretap() {
        return wiretap;
    }

    /** @param wiretap {@code true} or {@code false} (any other value is refused, not taken for false) */
    public void setWiretap(final String wiretap) {
        this.wiretap = ConfigChecks.flag(key("wiretap"), wiretap);
    }

    /**
     * @return {@code <prefix>.<name>.wiretap-category}: the logger the wiretap's lines go to when
     * {@link #isWiretap() wiretap} is on, or empty for the core's ({@code io.rdmareactive.RdmaServer} for a server,
     * {@code io.rdmareactive.RdmaClient} for a client); it does not turn the wiretap on by itself
     */
    public Optional<String> getWiretapCategory() {
        return Optional.ofNullable(wiretapCategory);
    }

    /** @param wiretapCategory a logger's name, e.g. {@code wire.orders}; not blank */
    public void setWiretapCategory(final String wiretapCategory) {
        this.wiretapCategory = ConfigChecks.wiretapCategory(key("wiretap-category"), wiretapCategory);
    }

    /**
     * @param property a property of this server or client, e.g. {@code address}
     * @return its full key, e.g. {@code rdma.servers.<name>.address}, for messages
     */
    public String key(final String property) {
        return prefix + "." + name + "." + property;
    }

    /** @return the address, or a {@link ConfigurationException} naming the key when it is missing */
    public String requireAddress() {
        if (address == null) {
            throw new ConfigurationException(key("address") + " is not set: " + role + " '" + name
                + "' needs an address");
        }
        return address;
    }
}
