package io.rdmareactive.testsupport;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options a child JVM takes over from this one: all of them (heap size, collector, compiler settings, system
 * properties such as {@code rdma.idle}, so that a child measured beside its parent runs as it does, and gets what the
 * environment needs, such as the reduced compilation of an emulated machine) but a debugger agent, whose port this
 * JVM holds, plus the {@linkplain #REQUIRED two options every rdma-reactive JVM needs} where they are missing.
 */
final class JvmOptions {

    /** The options every JVM that uses rdma-reactive needs: FFM, and the export Agrona needs. */
    static final List<String> REQUIRED = List.of("--enable-native-access=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");

    private JvmOptions() {
    }

    /** @return this JVM's options as a child takes them over */
    static List<String> inherited() {
        return inherited(ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /**
     * @param options a JVM's input arguments
     * @return the options a child JVM takes over: all but debugger agents, plus {@link #REQUIRED} where missing
     */
    static List<String> inherited(final List<String> options) {
        final List<String> inherited = new ArrayList<>();
        for (final String option : options) {
            if (!option.startsWith("-agentlib:jdwp") && !option.startsWith("-Xrunjdwp")) {
                inherited.add(option);
            }
        }
        for (final String required : REQUIRED) {
            if (!inherited.contains(required)) {
                inherited.add(required);
            }
        }
        return inherited;
    }
}
