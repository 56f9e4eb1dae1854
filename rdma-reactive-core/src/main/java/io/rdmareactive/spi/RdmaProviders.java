package io.rdmareactive.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * Finds providers through {@link ServiceLoader} and chooses one by name, or automatically.
 *
 * <p>{@code auto} prefers the providers in {@link #AUTO_PREFERENCE} order and takes the first that is available;
 * its choice and the reason are logged once per process.
 */
public final class RdmaProviders {

    /** The name that asks for automatic choice. */
    public static final String AUTO = "auto";

    /** The order in which {@link #auto()} tries providers. */
    public static final List<String> AUTO_PREFERENCE = List.of("verbs", "shm");

    private static final Logger LOG = Loggers.getLogger(RdmaProviders.class);
    private static final AtomicBoolean AUTO_LOGGED = new AtomicBoolean();

    private RdmaProviders() {
    }

    /** @return every provider on the class path, in discovery order */
    public static List<RdmaProvider> all() {
        final List<RdmaProvider> providers = new ArrayList<>();
        ServiceLoader.load(RdmaProvider.class, RdmaProviders.class.getClassLoader()).forEach(providers::add);
        return Collections.unmodifiableList(providers);
    }

    /**
     * @param name a provider name, or {@link #AUTO}
     * @return the provider of that name
     * @throws RdmaException if there is no such provider; the message lists the ones there are
     */
    public static RdmaProvider named(final String name) {
        final String wanted = name.trim().toLowerCase(Locale.ROOT);
        if (AUTO.equals(wanted)) {
            return auto();
        }
        final List<RdmaProvider> providers = all();
        for (final RdmaProvider provider : providers) {
            if (provider.name().equals(wanted)) {
                return provider;
            }
        }
        throw new RdmaException("no RDMA provider named '" + name + "'; the class path has " + names(providers)
            + " (or use '" + AUTO + "')");
    }

    /**
     * @return the first available provider in {@link #AUTO_PREFERENCE} order, then any other available provider
     * @throws RdmaException if none is available; the message gives each provider's reason
     */
    public static RdmaProvider auto() {
        final List<RdmaProvider> providers = all();
        final StringBuilder reasons = new StringBuilder();
        final List<RdmaProvider> ordered = new ArrayList<>();
        for (final String preferred : AUTO_PREFERENCE) {
            providers.stream().filter(p -> p.name().equals(preferred)).forEach(ordered::add);
        }
        providers.stream().filter(p -> !ordered.contains(p)).forEach(ordered::add);
        for (final RdmaProvider provider : ordered) {
            final Availability availability = provider.availability();
            if (availability.available()) {
                if (AUTO_LOGGED.compareAndSet(false, true)) {
                    LOG.info("RDMA provider 'auto' chose '{}': {}{}", provider.name(), availability.reason(),
                        reasons.isEmpty() ? "" : "; passed over: " + reasons);
                }
                return provider;
            }
            if (!reasons.isEmpty()) {
                reasons.append("; ");
            }
            reasons.append(provider.name()).append(": ").append(availability.reason());
        }
        throw new RdmaException("no RDMA provider is available on this machine: "
            + (reasons.isEmpty() ? "none is on the class path" : reasons));
    }

    private static String names(final List<RdmaProvider> providers) {
        if (providers.isEmpty()) {
            return "no providers";
        }
        final List<String> names = new ArrayList<>();
        providers.forEach(p -> names.add("'" + p.name() + "'"));
        return String.join(", ", names);
    }
}
