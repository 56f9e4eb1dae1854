package io.rdmareactive;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The lifecycle hooks of a server's or a client's connections ({@code doOnConnection}/{@code doOnConnected} and
 * {@code doOnDisconnected}), in the order they were added. Immutable, as the builders that carry it.
 *
 * @param connected    called with each new connection, before anyone else sees it
 * @param disconnected called once when such a connection has ended
 */
record ConnectionHooks(List<Consumer<? super Connection>> connected,
                       List<Consumer<? super Connection>> disconnected) {

    private static final Logger LOG = Loggers.getLogger(ConnectionHooks.class);

    /** No hooks. */
    static final ConnectionHooks NONE = new ConnectionHooks(List.of(), List.of());

    ConnectionHooks {
        connected = List.copyOf(connected);
        disconnected = List.copyOf(disconnected);
    }

    ConnectionHooks onConnected(final Consumer<? super Connection> hook) {
        return new ConnectionHooks(append(connected, hook), disconnected);
    }

    ConnectionHooks onDisconnected(final Consumer<? super Connection> hook) {
        return new ConnectionHooks(connected, append(disconnected, hook));
    }

    private static List<Consumer<? super Connection>> append(final List<Consumer<? super Connection>> hooks,
                                                             final Consumer<? super Connection> hook) {
        return Stream.concat(hooks.stream(), Stream.of(Objects.requireNonNull(hook, "hook"))).toList();
    }

    /**
     * A connection began: arms the disconnected hooks on its end, then runs the connected hooks. If one throws, the
     * connection is disposed of (the disconnected hooks then run) and what it threw is thrown on.
     */
    void connected(final Connection connection) {
        if (!disconnected.isEmpty()) {
            connection.onDispose().onErrorComplete().subscribe(null, null, () -> disconnected(connection));
        }
        for (final Consumer<? super Connection> hook : connected) {
            try {
                hook.accept(connection);
            } catch (final RuntimeException | Error ex) {
                connection.dispose();
                throw ex;
            }
        }
    }

    /** A connection ended: runs every disconnected hook, logging those that throw. */
    private void disconnected(final Connection connection) {
        for (final Consumer<? super Connection> hook : disconnected) {
            try {
                hook.accept(connection);
            } catch (final RuntimeException ex) {
                LOG.warn("a doOnDisconnected hook failed for the connection to {}", connection.peer(), ex);
            }
        }
    }
}
