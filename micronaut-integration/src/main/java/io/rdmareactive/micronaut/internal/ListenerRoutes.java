package io.rdmareactive.micronaut.internal;

import io.micronaut.context.exceptions.ConfigurationException;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The {@code @RdmaChannel} methods found at startup, by server and channel name. */
@Singleton
public class ListenerRoutes {

    private final Map<String, Map<String, ListenerRoute>> byServer = new LinkedHashMap<>();

    synchronized void add(final ListenerRoute route) {
        final Map<String, ListenerRoute> routes = byServer.computeIfAbsent(route.server(), name -> new LinkedHashMap<>());
        final ListenerRoute existing = routes.putIfAbsent(route.channel(), route);
        if (existing != null) {
            throw new ConfigurationException("@RdmaChannel(\"" + route.channel() + "\") is served twice on server '"
                + route.server() + "': by " + describe(existing) + " and by " + describe(route));
        }
    }

    /** @return the names of the servers that listeners use */
    public synchronized Set<String> servers() {
        return Set.copyOf(byServer.keySet());
    }

    synchronized Map<String, ListenerRoute> routes(final String server) {
        return Map.copyOf(byServer.getOrDefault(server, Map.of()));
    }

    /** @return the channels a server serves, for health and logs */
    public synchronized Set<String> channels(final String server) {
        return Set.copyOf(byServer.getOrDefault(server, Map.of()).keySet());
    }

    static String describe(final ListenerRoute route) {
        return route.method().getDeclaringType().getName() + "." + route.method().getMethodName();
    }
}
