package io.rdmareactive.spi.demo;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a second JVM that a demo starts as its peer: the same {@code java} executable, the same JVM
 * options as this one (heap size, garbage collector, compiler settings, system properties such as
 * {@code rdma.idle}), the same class path, then the given main class.
 *
 * <p>A peer started with the JVM's defaults instead would differ from the process that measures it, and it would
 * miss options the environment needs (for example the reduced compilation that keeps JVMs sound in an emulated
 * machine). A debugger agent is not passed on: the second JVM would fail to bind the same port.
 */
public final class ChildJvmCommand {

    /** The options every JVM of this project needs; added when this JVM was started without them. */
    private static final List<String> REQUIRED = List.of("--enable-native-access=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");

    private ChildJvmCommand() {
    }

    /**
     * @param mainClass the class whose {@code main} the peer runs
     * @param extraOptions JVM options for the peer alone, after the inherited ones (so a later {@code -Xmx} or
     *     {@code -Dname=value} wins)
     * @return {@code java}, this JVM's options, the extra ones, {@code -cp} this class path, and the class name;
     *     append the program's arguments
     */
    public static List<String> of(final Class<?> mainClass, final String... extraOptions) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(inheritedOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        command.addAll(List.of(extraOptions));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        return command;
    }

    /**
     * @param options a JVM's input arguments
     * @return the options a peer JVM takes over: all but debugger agents, plus {@link #REQUIRED} where missing
     */
    static List<String> inheritedOptions(final List<String> options) {
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
