package io.rdmareactive.micronaut.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.exceptions.ConfigurationException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * {@code rdma.*}: what every server and client of the application shares unless its own configuration says
 * otherwise. Wrong values fail at startup with a {@link ConfigurationException} naming the key.
 */
@ConfigurationProperties("rdma")
public class RdmaConfiguration {

    /** The providers {@code rdma.provider} accepts. */
    public static final Set<String> PROVIDERS = Set.of("auto", "verbs", "shm");

    private boolean enabled = true;
    private String provider = "auto";
    private Path directory;
    private String idleStrategy = "backoff";
    private Duration drainTimeout = Duration.ofSeconds(10);

    /** @return whether RDMA servers and clients start at all ({@code rdma.enabled}, default true) */
    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(final boolean enabled) {
        this.enabled = enabled;
    }

    /** @return {@code rdma.provider}: {@code auto} (verbs if an active device exists, else shm), {@code verbs}, {@code shm} */
    public String getProvider() {
        return provider;
    }

    public void setProvider(final String provider) {
        this.provider = checkProvider("rdma.provider", provider);
    }

    /** @return {@code rdma.directory}: where the shm provider keeps its files (default: under /dev/shm) */
    public Optional<Path> getDirectory() {
        return Optional.ofNullable(directory);
    }

    public void setDirectory(final Path directory) {
        this.directory = directory;
    }

    /** @return {@code rdma.idle-strategy}: the event loops' idle strategy (default backoff) */
    public String getIdleStrategy() {
        return idleStrategy;
    }

    public void setIdleStrategy(final String idleStrategy) {
        this.idleStrategy = ConfigChecks.idleStrategy("rdma.idle-strategy", idleStrategy);
    }

    /**
     * @return {@code rdma.drain-timeout}: at shutdown, how long clients wait for their calls in flight to finish,
     * and servers for the streams they serve, before they close anyway (default 10s)
     */
    public Duration getDrainTimeout() {
        return drainTimeout;
    }

    public void setDrainTimeout(final Duration drainTimeout) {
        this.drainTimeout = ConfigChecks.positive("rdma.drain-timeout", drainTimeout);
    }

    static String checkProvider(final String key, final String value) {
        if (value == null || !PROVIDERS.contains(value)) {
            throw new ConfigurationException(key + " must be one of auto, verbs, shm; it is '" + value + "'");
        }
        return value;
    }
}
