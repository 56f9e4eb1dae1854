package io.rdmareactive;

import io.rdmareactive.codec.Codecs;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One side of the Soft-RoCE guest's link-cut check (softroce/guest-tests.sh, docs/softroce.md "Two nodes"): a stream
 * over verbs from node A to node B, whose network link the script then takes down. Each side reports on stdout, one
 * line per event, and says when (wall-clock milliseconds, so that the script can subtract the moment it cut the
 * link) and how its connection ended. Which device each side opens is {@code -Drdma.verbs.device}.
 *
 * <ul>
 *   <li>{@code serve <address> <keepalive ms> <liveness timeout ms>}: a server whose handler sends "0", "1", "2",
 *   ... to its client for as long as it is asked; prints {@code LISTENING <address>} once bound,
 *   {@code CONNECTED <epoch ms>} when its handler starts, then
 *   {@code ENDED <epoch ms> <messages sent> <error or "completed">} when that connection ends, and exits 0 if it
 *   ended with an error (what a cut link must give), 1 otherwise;</li>
 *   <li>{@code receive <address> <keepalive ms> <liveness timeout ms>}: connects ({@code CONNECTED <epoch ms>}),
 *   checks that the messages count up,
 *   prints {@code RECEIVING <n>} after 1000 of them, then {@code ENDED <epoch ms> <messages received> <error or
 *   "completed">}, and exits like the server.</li>
 * </ul>
 *
 * Both wait at most ten minutes for their connection to end (the script bounds them more tightly).
 */
public final class TwoNodePeer {

    private static final Duration BOUND = Duration.ofMinutes(10);
    /** Binding, and connecting with the server's answer: an emulated machine loads their classes slowly. */
    private static final Duration CONNECT_BOUND = Duration.ofMinutes(2);

    private TwoNodePeer() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("use: serve|receive <address> <keepalive ms> <liveness timeout ms>");
            System.exit(2);
        }
        final String address = args[1];
        final Duration keepalive = Duration.ofMillis(Long.parseLong(args[2]));
        final Duration timeout = Duration.ofMillis(Long.parseLong(args[3]));
        final Throwable ended;
        try {
            ended = switch (args[0]) {
                case "serve" -> serve(address, keepalive, timeout);
                case "receive" -> receive(address, keepalive, timeout);
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            };
        } catch (final Throwable error) {
            System.out.println("FAILED " + error);
            error.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
            return;
        }
        System.out.flush();
        System.exit(ended == null ? 1 : 0);
    }

    /** @return what the served connection ended with, null if it completed */
    private static Throwable serve(final String address, final Duration keepalive, final Duration timeout)
        throws Exception {
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();
        final AtomicLong sent = new AtomicLong();
        final DisposableServer server = RdmaServer.create().provider("verbs").address(address)
            .idleStrategy("backoff").liveness(keepalive, timeout)
            .handle((in, out) -> Mono.fromRunnable(() -> {
                System.out.println("CONNECTED " + System.currentTimeMillis());
                System.out.flush();
            }).then(out.send(Flux.<String, Long>generate(() -> 0L, (next, sink) -> {
                sink.next(Long.toString(next));
                sent.set(next + 1);
                return next + 1;
            }), Codecs.UTF8_STRING)
                .doOnError(error -> report(ended, sent.get(), error))
                .doOnSuccess(ignored -> report(ended, sent.get(), null))))
            .bind().block(CONNECT_BOUND);
        System.out.println("LISTENING " + server.address());
        System.out.flush();
        final Throwable error = ended.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        server.dispose();
        return error;
    }

    /** @return what the connection's inbound stream ended with, null if it completed */
    private static Throwable receive(final String address, final Duration keepalive, final Duration timeout)
        throws Exception {
        final CompletableFuture<Throwable> ended = new CompletableFuture<>();
        final AtomicLong received = new AtomicLong();
        final Connection connection = RdmaClient.create().provider("verbs").address(address).idleStrategy("backoff")
            .liveness(keepalive, timeout).connectTimeout(CONNECT_BOUND).connect().block(CONNECT_BOUND);
        System.out.println("CONNECTED " + System.currentTimeMillis());
        System.out.flush();
        connection.inbound().receive(Codecs.UTF8_STRING).subscribe(
            value -> {
                final long count = received.incrementAndGet();
                if (!value.equals(Long.toString(count - 1))) {
                    System.out.println("FAILED message " + (count - 1) + " was " + value);
                    System.out.flush();
                    System.exit(1);
                }
                if (count == 1_000) {
                    System.out.println("RECEIVING " + count);
                    System.out.flush();
                }
            },
            error -> report(ended, received.get(), error),
            () -> report(ended, received.get(), null));
        final Throwable error = ended.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        connection.dispose();
        return error;
    }

    private static void report(final CompletableFuture<Throwable> ended, final long messages, final Throwable error) {
        if (ended.isDone()) {
            return;
        }
        System.out.println("ENDED " + System.currentTimeMillis() + " " + messages + " "
            + (error == null ? "completed" : error.getClass().getSimpleName() + ": " + error.getMessage()));
        System.out.flush();
        ended.complete(error);
    }
}
