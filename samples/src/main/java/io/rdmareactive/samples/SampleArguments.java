package io.rdmareactive.samples;

import io.rdmareactive.RdmaClient;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code --key=value} options. Maven's exec plugin hands {@code -Dsample.args="..."} over as one argument, so all
 * arguments are joined and split again at white space.
 */
final class SampleArguments {

    private final Map<String, String> values = new LinkedHashMap<>();

    private SampleArguments() {
    }

    /**
     * @param args    the command line
     * @param known   the keys this sample understands (without {@code --})
     * @param usage   what to print when an argument is not one of them
     */
    static SampleArguments parse(final String[] args, final Set<String> known, final String usage) {
        final SampleArguments parsed = new SampleArguments();
        for (final String arg : String.join(" ", args).trim().split("\\s+")) {
            if (arg.isEmpty()) {
                continue;
            }
            final int equals = arg.indexOf('=');
            final String key = arg.startsWith("--") ? arg.substring(2, equals < 0 ? arg.length() : equals) : "";
            if (!known.contains(key)) {
                throw new IllegalArgumentException("unknown argument '" + arg + "'; " + usage);
            }
            parsed.values.put(key, equals < 0 ? "" : arg.substring(equals + 1));
        }
        return parsed;
    }

    String string(final String key, final String otherwise) {
        return values.getOrDefault(key, otherwise);
    }

    boolean has(final String key) {
        return values.containsKey(key);
    }

    int integer(final String key, final int otherwise, final int min, final int max) {
        final String value = values.get(key);
        if (value == null) {
            return otherwise;
        }
        final int parsed;
        try {
            parsed = Integer.parseInt(value.replace("_", ""));
        } catch (final NumberFormatException ex) {
            throw new IllegalArgumentException("--" + key + " needs a number, not '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException("--" + key + " must be from " + min + " to " + max + ", not " + parsed);
        }
        return parsed;
    }

    /**
     * The event loops' idle strategy: as given, else the {@code rdma.idle} property, else busy-spin where there are
     * cores to spare and {@code onSmallMachines} where there are two or fewer.
     */
    String idle(final String onSmallMachines) {
        final String idle = string("idle", System.getProperty("rdma.idle",
            Runtime.getRuntime().availableProcessors() <= 2 ? onSmallMachines : "busy-spin"));
        RdmaClient.create().idleStrategy(idle); // refuses an unknown name, saying which there are
        return idle;
    }
}
