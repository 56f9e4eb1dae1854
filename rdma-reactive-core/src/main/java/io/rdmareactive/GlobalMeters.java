package io.rdmareactive;

import io.micrometer.core.instrument.Metrics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import reactor.core.Disposable;

/**
 * The meters of {@code metrics(true)}, in Micrometer's global registry ({@code Metrics.globalRegistry}, as
 * reactor-netty registers its own): one set per side and name, registered by its first user (a server, or a client's
 * connection) and removed when its last one is disposed. While several use it, it reads the counters of the oldest
 * still there. Loaded only once {@link MicrometerPresence} found Micrometer.
 */
final class GlobalMeters {

    private static final Map<List<String>, Shared> SHARED = new HashMap<>();

    private GlobalMeters() {
    }

    /**
     * @param side     {@code client} or {@code server}
     * @param name     the address
     * @param counters the user's counters
     * @return what gives the user's share up (idempotent)
     */
    static Disposable register(final String side, final String name, final Supplier<RdmaCounters> counters) {
        final List<String> key = List.of(side, name);
        synchronized (SHARED) {
            Shared shared = SHARED.get(key);
            if (shared == null) {
                shared = new Shared();
                shared.binding = RdmaMeters.bind(Metrics.globalRegistry, side, name, shared::read);
                SHARED.put(key, shared);
            }
            shared.users.add(counters);
        }
        final AtomicBoolean released = new AtomicBoolean();
        return new Disposable() {
            @Override
            public void dispose() {
                if (released.compareAndSet(false, true)) {
                    release(key, counters);
                }
            }

            @Override
            public boolean isDisposed() {
                return released.get();
            }
        };
    }

    private static void release(final List<String> key, final Supplier<RdmaCounters> counters) {
        synchronized (SHARED) {
            final Shared shared = SHARED.get(key);
            if (shared != null && shared.users.remove(counters) && shared.users.isEmpty()) {
                SHARED.remove(key);
                shared.binding.dispose();
            }
        }
    }

    /** One side and name's meters and the users that keep them (held here, so Micrometer's weak reference holds). */
    private static final class Shared {
        private final List<Supplier<RdmaCounters>> users = new CopyOnWriteArrayList<>();
        private Disposable binding;

        RdmaCounters read() {
            final java.util.Iterator<Supplier<RdmaCounters>> oldest = users.iterator();
            return oldest.hasNext() ? oldest.next().get() : RdmaCounters.CLOSED;
        }
    }
}
