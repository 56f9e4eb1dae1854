package io.rdmareactive.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The two JVM options every JVM that uses rdma-reactive needs, checked when a runtime opens (every client, server and
 * runtime opens one or uses one that did), so that a JVM started without them fails at once with a message that names
 * what is missing and where to put it:
 * <ul>
 *   <li>{@code --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED}: Agrona 2.x reads memory through
 *   {@code jdk.internal.misc.Unsafe}. Without it the first Agrona class that needs it fails to initialise with an
 *   {@link IllegalAccessError} on whatever thread touches it first, and a {@code connect()} or {@code bind()} whose
 *   work died that way never answered.</li>
 *   <li>{@code --enable-native-access=ALL-UNNAMED}: the verbs provider and the futexes call native code through FFM's
 *   restricted methods. JDK 25 only warns without it; later JDKs refuse the call.</li>
 * </ul>
 * On the module path the options name the modules instead of {@code ALL-UNNAMED} (Agrona's, {@code org.agrona}, for
 * the export, and this one's for native access); the message says which.
 *
 * <p>The check has no side effects: it asks {@link Module#isExported(String, Module)} about the module of Agrona's
 * {@code UnsafeApi} (loaded, never initialised) and {@link Module#isNativeAccessEnabled()} about this class's module,
 * the one whose classes call FFM. It must not touch Agrona, so this class sees the JDK only. A JVM that passes is
 * remembered; one that fails is asked again next time (an agent may add the export later).
 */
public final class JvmFlags {

    /** The class whose initialisation needs the export; loaded, never initialised, here. */
    static final String AGRONA_UNSAFE_API = "org.agrona.UnsafeApi";
    /** The package Agrona needs exported. */
    static final String INTERNAL_MISC = "jdk.internal.misc";
    private static final String ALL_UNNAMED = "ALL-UNNAMED";

    private static volatile boolean passed;

    private JvmFlags() {
    }

    /**
     * Fails unless this JVM has both options. Cheap after the first call that passed.
     *
     * @throws IllegalStateException naming the missing option(s) and where to put them
     */
    public static void require() {
        if (passed) {
            return;
        }
        final Optional<String> problem = problem();
        if (problem.isPresent()) {
            throw new IllegalStateException(problem.get());
        }
        passed = true;
    }

    /** @return what this JVM lacks and where to put it, or empty when it has both options */
    public static Optional<String> problem() {
        final Module own = JvmFlags.class.getModule();
        final Module agrona = agronaModule(own);
        final boolean exported = agrona == null || Object.class.getModule().isExported(INTERNAL_MISC, agrona);
        return problem(own.isNativeAccessEnabled(), target(own), exported, agrona == null ? ALL_UNNAMED
            : target(agrona));
    }

    /**
     * @param nativeAccess       whether the module that calls FFM may
     * @param nativeAccessTarget that module as {@code --enable-native-access} names it
     * @param exported           whether {@code jdk.internal.misc} is exported to Agrona's module
     * @param exportTarget       that module as {@code --add-exports} names it
     * @return the message for what is missing, or empty
     */
    static Optional<String> problem(final boolean nativeAccess, final String nativeAccessTarget,
                                    final boolean exported, final String exportTarget) {
        final String nativeFlag = "--enable-native-access=" + nativeAccessTarget;
        final String exportFlag = "--add-exports=java.base/" + INTERNAL_MISC + "=" + exportTarget;
        final List<String> missing = new ArrayList<>(2);
        if (!nativeAccess) {
            missing.add(nativeFlag + " (rdma-reactive calls native code through FFM: libibverbs, librdmacm, futex)");
        }
        if (!exported) {
            missing.add(exportFlag + " (Agrona, which rdma-reactive runs on, uses " + INTERNAL_MISC + ".Unsafe)");
        }
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        final String both = nativeFlag + " " + exportFlag;
        final StringBuilder message = new StringBuilder("rdma-reactive cannot start: this JVM was started without ")
            .append(String.join(" and without ", missing)).append(".\n")
            .append("Start every JVM that uses rdma-reactive with ").append(both).append(":\n")
            .append("  - on the java command line: java ").append(both).append(" -cp ... your.Main\n")
            .append("  - Maven tests: in the <argLine> of maven-surefire-plugin (and maven-failsafe-plugin)\n")
            .append("  - Gradle: in jvmArgs of the test and JavaExec tasks, or the application plugin's ")
            .append("applicationDefaultJvmArgs\n")
            .append("  - an IDE: in the run configuration's VM options");
        if (ALL_UNNAMED.equals(nativeAccessTarget) && ALL_UNNAMED.equals(exportTarget)) {
            message.append("\n  - an executable jar (java -jar): in its manifest, the lines 'Add-Exports: java.base/")
                .append(INTERNAL_MISC).append("' and 'Enable-Native-Access: ALL-UNNAMED'");
        }
        return Optional.of(message.toString());
    }

    /** @return the module of Agrona's UnsafeApi (on the class path: the unnamed module), or null without one */
    private static Module agronaModule(final Module fallback) {
        try {
            return Class.forName(AGRONA_UNSAFE_API, false, JvmFlags.class.getClassLoader()).getModule();
        } catch (final ClassNotFoundException ex) {
            return null; // an Agrona without UnsafeApi (1.x) does not need the export
        } catch (final LinkageError ex) {
            return fallback;
        }
    }

    /** @return how the command line names a module: its name, or {@code ALL-UNNAMED} */
    private static String target(final Module module) {
        return module.isNamed() ? module.getName() : ALL_UNNAMED;
    }
}
