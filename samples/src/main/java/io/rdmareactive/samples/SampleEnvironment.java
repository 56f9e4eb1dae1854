package io.rdmareactive.samples;

import io.rdmareactive.RdmaEnvironment;
import java.io.PrintStream;

/** Prints what a sample ran on ({@link RdmaEnvironment}) at the head of its results, so that they can be compared. */
final class SampleEnvironment {

    private SampleEnvironment() {
    }

    /** Prints one line per item, each starting with {@code prefix}; a multi-line item is indented under its name. */
    static void print(final PrintStream out, final String prefix) {
        RdmaEnvironment.describe().forEach((name, value) ->
            out.println(prefix + name + ": " + value.replace("\n", "\n" + prefix + "    ")));
    }
}
