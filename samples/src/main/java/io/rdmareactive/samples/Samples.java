package io.rdmareactive.samples;

import io.rdmareactive.samples.micronaut.OrderService;
import io.rdmareactive.samples.micronaut.PricingService;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Runs one sample by name, the one runner the build offers: {@code ./mvnw -q -pl samples -am -DskipTests package
 * exec:exec -Dsample=ping-pong} (options in {@code -Dsample.args="..."}), or {@code java ... Samples NAME [options]}.
 * Without a name it lists the samples; with one it does not know it lists them too, and exits with status 2.
 */
public final class Samples {

    private static final Map<String, Sample> SAMPLES = new LinkedHashMap<>();

    static {
        SAMPLES.put("ping-pong", new Sample(PingPong::main, "two processes, one message in flight, round-trip percentiles"));
        SAMPLES.put("slow-consumer", new Sample(SlowConsumer::main, "a slow subscriber's demand holds a fast producer back"));
        SAMPLES.put("remote-lookup", new Sample(RemoteLookup::main, "one-sided READs against requestResponse lookups"));
        SAMPLES.put("shared-counter", new Sample(SharedCounter::main, "FETCH_AND_ADD on one counter from several processes"));
        SAMPLES.put("all-reduce", new Sample(AllReduce::main, "a ring all-reduce of float vectors, nccl-tests' table"));
        SAMPLES.put("soak", new Sample(Soak::main, "hours of mixed traffic, every message checked"));
        SAMPLES.put("pricing-service", new Sample(PricingService::main, "Micronaut: the @RdmaListener side (start it first)"));
        SAMPLES.put("order-service", new Sample(OrderService::main, "Micronaut: the @RdmaClient side, calls the pricing service"));
    }

    private Samples() {
    }

    /**
     * Runs the sample named by the first argument with the rest as its options.
     *
     * @param args the sample's name, then its options
     * @throws Exception whatever the sample's {@code main} throws
     */
    public static void main(final String[] args) throws Exception {
        final String name = args.length == 0 ? "" : args[0].trim();
        if (name.isEmpty()) {
            usage(name, System.out);
            return;
        }
        final Sample sample = SAMPLES.get(name);
        if (sample == null) {
            usage(name, System.err);
            System.exit(2);
            return;
        }
        sample.main().run(Arrays.copyOfRange(args, 1, args.length));
    }

    /** @return the names {@link #main} accepts, in the order the usage lists them */
    static Set<String> names() {
        return Collections.unmodifiableSet(SAMPLES.keySet());
    }

    static void usage(final String name, final PrintStream out) {
        out.println(name.isEmpty() ? "samples: name a sample with -Dsample=NAME (Maven) or as the first argument"
            : "samples: no sample called '" + name + "'");
        out.println("the samples:");
        SAMPLES.forEach((key, sample) -> out.printf("  %-16s %s%n", key, sample.summary()));
        out.println("options go in -Dsample.args=\"...\"; each sample lists its own on a wrong one");
    }

    @FunctionalInterface
    private interface Main {
        void run(String[] args) throws Exception;
    }

    private record Sample(Main main, String summary) {
    }
}
