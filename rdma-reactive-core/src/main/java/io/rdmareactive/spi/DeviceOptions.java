package io.rdmareactive.spi;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How to open a device. Immutable; built with {@link #builder()}.
 *
 * <p>Common settings are typed; settings only one provider understands are string properties whose keys start with
 * the provider's name (for example {@code shm.region-table-entries}).
 */
public final class DeviceOptions {

    /** No limit on registered bytes beyond what the provider or the operating system imposes. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private final String deviceName;
    private final Path directory;
    private final long maxRegisteredBytes;
    private final Map<String, String> properties;

    private DeviceOptions(final Builder builder) {
        this.deviceName = builder.deviceName;
        this.directory = builder.directory;
        this.maxRegisteredBytes = builder.maxRegisteredBytes;
        this.properties = Map.copyOf(builder.properties);
    }

    /** @return options with every default */
    public static DeviceOptions defaults() {
        return builder().build();
    }

    /** @return a builder with every default */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the device to open (an adapter name on verbs, a label on shared memory), if one was named */
    public Optional<String> deviceName() {
        return Optional.ofNullable(deviceName);
    }

    /** @return where a provider keeps its files (shared memory: registered memory and sockets), if set */
    public Optional<Path> directory() {
        return Optional.ofNullable(directory);
    }

    /** @return the most bytes that may be registered at once on this device */
    public long maxRegisteredBytes() {
        return maxRegisteredBytes;
    }

    /** @return a provider-specific property */
    public Optional<String> property(final String key) {
        return Optional.ofNullable(properties.get(key));
    }

    /** @return every provider-specific property */
    public Map<String, String> properties() {
        return properties;
    }

    @Override
    public String toString() {
        return "DeviceOptions{deviceName=" + deviceName + ", directory=" + directory + ", maxRegisteredBytes="
            + (maxRegisteredBytes == UNLIMITED ? "unlimited" : maxRegisteredBytes) + ", properties="
            + new TreeMap<>(properties) + '}';
    }

    /** Builds {@link DeviceOptions}. */
    public static final class Builder {
        private String deviceName;
        private Path directory;
        private long maxRegisteredBytes = UNLIMITED;
        private final Map<String, String> properties = new TreeMap<>();

        private Builder() {
        }

        /** @param deviceName the device to open */
        public Builder deviceName(final String deviceName) {
            this.deviceName = Objects.requireNonNull(deviceName, "deviceName");
            return this;
        }

        /** @param directory where the provider keeps its files */
        public Builder directory(final Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * @param maxRegisteredBytes the most bytes registered at once, positive (default: {@link #UNLIMITED}: no
         *                           limit of ours; an {@code RdmaRuntime} sets half of the physical memory)
         */
        public Builder maxRegisteredBytes(final long maxRegisteredBytes) {
            if (maxRegisteredBytes <= 0) {
                throw new IllegalArgumentException("maxRegisteredBytes must be positive: " + maxRegisteredBytes);
            }
            this.maxRegisteredBytes = maxRegisteredBytes;
            return this;
        }

        /** @param key a provider-specific key, @param value its value */
        public Builder property(final String key, final String value) {
            properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** @return the options */
        public DeviceOptions build() {
            return new DeviceOptions(this);
        }
    }
}
