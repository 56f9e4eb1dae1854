package io.rdmareactive;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The JVM of {@link MissingJvmFlagsTest}, started without one of the two options: {@code <mode> <directory>} makes a
 * shared-memory server, client or runtime in the directory, then calls {@code bind().block()},
 * {@code connect().block()} (both without a timeout) or {@code build()}. It prints, one line each:
 * <ul>
 *   <li>{@code ARGS [...]}: its JVM's input arguments;</li>
 *   <li>{@code OPTIONS export=<bool> native=<bool>}: what the JVM says of the two, straight from {@link Module};</li>
 *   <li>{@code FAILED AFTER <ms> ms: <exception>}, the time from just before the call to its error, then exits 1;
 *   or {@code MADE <what>} and exits 0.</li>
 * </ul>
 */
public final class JvmFlagsPeer {

    static final String ARGS = "ARGS ";
    static final String OPTIONS = "OPTIONS ";
    static final String FAILED = "FAILED AFTER ";
    static final String MADE = "MADE ";

    private JvmFlagsPeer() {
    }

    public static void main(final String[] args) {
        System.out.println(ARGS + ManagementFactory.getRuntimeMXBean().getInputArguments());
        final Module own = JvmFlagsPeer.class.getModule();
        System.out.println(OPTIONS + "export=" + Object.class.getModule().isExported("jdk.internal.misc", own)
            + " native=" + own.isNativeAccessEnabled());
        final Path directory = Path.of(args[1]);
        // the builders are made before the clock starts: what is timed is the call alone
        final Callable<Object> call = switch (args[0]) {
            case "bind" -> {
                final RdmaServer server = RdmaServer.create().provider("shm").directory(directory).address("flags")
                    .idleStrategy("backoff");
                yield () -> server.bind().block();
            }
            case "connect" -> {
                final RdmaClient client = RdmaClient.create().provider("shm").directory(directory).address("flags")
                    .idleStrategy("backoff");
                yield () -> client.connect().block();
            }
            case "build" -> {
                final RdmaRuntime.Builder builder = RdmaRuntime.builder().provider("shm").directory(directory).loops(1)
                    .idleStrategy("backoff");
                yield builder::build;
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        };
        // Reactor's classes and its bounded-elastic threads, which every call hops to, are loaded and started before
        // the clock starts too, as in an application that used Reactor before: the time is the call's, not the JVM's
        Mono.fromCallable(() -> 0).subscribeOn(Schedulers.boundedElastic()).block();
        final long start = System.nanoTime();
        try {
            final Object made = call.call();
            System.out.println(MADE + made);
            System.out.flush();
            System.exit(0);
        } catch (final Throwable error) {
            final long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.println(FAILED + millis + " ms: " + error);
            error.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }
}
