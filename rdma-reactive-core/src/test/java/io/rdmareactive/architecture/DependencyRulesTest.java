package io.rdmareactive.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.rdmareactive.architecture.fixture.ApiReachingIntoAProvider;
import io.rdmareactive.architecture.fixture.ApiReachingMicrometer;
import io.rdmareactive.architecture.fixture.codec.CodecReachingUp;
import io.rdmareactive.architecture.fixture.internal.JvmCheckReachingAgrona;
import io.rdmareactive.architecture.fixture.internal.driver.DriverReachingUp;
import io.rdmareactive.architecture.fixture.internal.protocol.ProtocolReachingUp;
import io.rdmareactive.architecture.fixture.internal.reactive.ReactiveReachingDown;
import io.rdmareactive.architecture.fixture.provider.shm.ShmReachingIntoVerbsAndTheProtocol;
import io.rdmareactive.architecture.fixture.provider.verbs.VerbsReachingIntoShm;
import io.rdmareactive.architecture.fixture.ring.RingReachingUp;
import io.rdmareactive.architecture.fixture.spi.SpiReachingIntoAProvider;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The module and package rules of docs/architecture.md, kept by the build: a forbidden dependency fails this test and so
 * {@code ./mvnw verify}. Dependencies point one way: ring-buffers and codecs see Agrona and the JDK only; inside core,
 * the SPI sees ring-buffers, providers see the SPI and ring-buffers and never each other, and nothing below the API
 * sees the API.
 *
 * <p>No rule can pass by checking nothing: each fails when the classes it governs are missing (no rule allows an empty
 * should), every package a rule names, as governed or as forbidden, must hold classes (so renaming a package breaks
 * the build instead of turning a rule into a no-op), and each rule, built the same way over the fixture tree
 * {@code io.rdmareactive.architecture.fixture} (a copy of the package layout whose classes break the rules), reports
 * the fixture class that breaks it.
 */
class DependencyRulesTest {

    private static final String JDK = "java..";
    private static final String AGRONA = "org.agrona..";
    /** Reactor's logging facade, the one every layer logs through (the package: Logger, Loggers, Metrics; no Flux). */
    private static final String LOGGING = "reactor.util";
    /** The project's packages. */
    static final Packages PROJECT = new Packages("io.rdmareactive");
    /** The fixture tree: the same layout, each package with a class that breaks its rules. */
    static final Packages FIXTURE = new Packages("io.rdmareactive.architecture.fixture");

    private static JavaClasses production;
    private static JavaClasses fixtures;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(PROJECT.root());
        fixtures = new ClassFileImporter().importPackages(FIXTURE.root());
    }

    /** The packages the rules speak of, under a root ("x.." is the package and its subpackages; "x" alone is x). */
    record Packages(String root) {
        String api() {
            return root;
        }

        String ring() {
            return root + ".ring..";
        }

        String codec() {
            return root + ".codec..";
        }

        /** The SPI's own package, without the demo. */
        String spi() {
            return root + ".spi";
        }

        String spiAndBelow() {
            return root + ".spi..";
        }

        String providers() {
            return root + ".provider..";
        }

        String shm() {
            return root + ".provider.shm..";
        }

        String verbs() {
            return root + ".provider.verbs..";
        }

        String internal() {
            return root + ".internal..";
        }

        /** The internal package itself, without the layers below it: the JVM options' check. */
        String jvmCheck() {
            return root + ".internal";
        }

        String protocol() {
            return root + ".internal.protocol..";
        }

        String driver() {
            return root + ".internal.driver..";
        }

        String reactive() {
            return root + ".internal.reactive..";
        }

        /** @return every package above: each must hold classes, or a rule that names it checks nothing */
        List<String> all() {
            return List.of(api(), ring(), codec(), spi(), spiAndBelow(), providers(), shm(), verbs(),
                internal(), jvmCheck(), protocol(), driver(), reactive());
        }
    }

    /** A rule with the name the reports give it. */
    record Rule(String name, ArchRule rule) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** @return the rules over the packages of {@code p}; none of them passes on an empty set of classes */
    static List<Rule> rules(final Packages p) {
        return Stream.of(
            new Rule("ring-buffers see only Agrona", classes().that().resideInAPackage(p.ring())
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, p.ring())
                .because("ring-buffers is the bottom module: Agrona and the JDK only")),
            new Rule("codecs see only Agrona", classes().that().resideInAPackage(p.codec())
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, p.codec())
                .because("the codecs module depends on Agrona alone")),
            new Rule("the SPI sees only ring-buffers", classes().that().resideInAPackage(p.spi())
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, LOGGING, p.ring(), p.spi())
                .because("the SPI is the contract below the protocol: it may see ring-buffers only")),
            new Rule("providers see only the SPI and ring-buffers", classes().that().resideInAPackage(p.providers())
                // jdk.net: the JDK's extended socket options (SO_PEERCRED, which the shm provider asks of its sockets)
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, "jdk.net..", AGRONA, LOGGING, p.ring(),
                    p.spi(), p.providers())
                .because("providers never see the protocol, the reactive layer or the API")),
            new Rule("shm never sees verbs", noClasses().that().resideInAPackage(p.shm())
                .should().dependOnClassesThat().resideInAPackage(p.verbs())
                .because("providers never see each other")),
            new Rule("verbs never sees shm", noClasses().that().resideInAPackage(p.verbs())
                .should().dependOnClassesThat().resideInAPackage(p.shm())
                .because("providers never see each other")),
            new Rule("no provider sees another", slices().matching(p.root() + ".provider.(*)..")
                .should().notDependOnEachOther()
                .because("providers never see each other, whichever providers there are")),
            new Rule("nothing below the API sees it", noClasses().that()
                .resideInAnyPackage(p.ring(), p.codec(), p.spiAndBelow(), p.providers(), p.internal())
                .should().dependOnClassesThat().resideInAPackage(p.api())
                .because("the public API sits on top; dependencies point down")),
            new Rule("the protocol sees the SPI, ring-buffers and codecs", classes().that()
                .resideInAPackage(p.protocol())
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, p.ring(), p.codec(), p.spi(),
                    p.protocol(), "javax.crypto..")
                .because("the protocol is written once against the SPI (and the JDK's HMAC for the authenticated "
                    + "handshake)")),
            new Rule("the driver sees neither providers nor the reactive layer", noClasses().that()
                .resideInAPackage(p.driver())
                .should().dependOnClassesThat().resideInAnyPackage(p.providers(), p.reactive())
                .because("the driver reaches providers only through the SPI, and never the reactive layer above it")),
            new Rule("the reactive layer sees neither providers nor the SPI", noClasses().that()
                .resideInAPackage(p.reactive())
                .should().dependOnClassesThat().resideInAnyPackage(p.providers(), p.spiAndBelow())
                .because("the reactive layer reaches the wire only through the protocol and the driver")),
            new Rule("the JVM options' check sees only the JDK", classes().that().resideInAPackage(p.jvmCheck())
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, p.jvmCheck())
                .because("the JVM's options are checked before anything of Agrona initialises, which fails without "
                    + "them")),
            new Rule("the API sees no provider", noClasses().that().resideInAPackage(p.api())
                .should().dependOnClassesThat().resideInAPackage(p.providers())
                .because("the API chooses providers by name through the SPI, never by class")),
            new Rule("only the meter classes see Micrometer", noClasses().that().resideInAPackage(p.root() + "..")
                .and().haveNameNotMatching(".*Meters(\\$.*)?") // RdmaMeters, GlobalMeters and their nested classes
                .should().dependOnClassesThat().resideInAPackage("io.micrometer..")
                .because("Micrometer is an optional dependency: a class that every client or server loads must not "
                    + "need it, so only RdmaMeters and GlobalMeters name it, loaded once metrics(true) found it")))
            .map(rule -> new Rule(rule.name(), rule.rule().allowEmptyShould(false)))
            .toList();
    }

    /** The fixture class that breaks each rule (some break more than one). */
    private static final Map<String, Class<?>> OFFENDERS = Map.ofEntries(
        Map.entry("ring-buffers see only Agrona", RingReachingUp.class),
        Map.entry("codecs see only Agrona", CodecReachingUp.class),
        Map.entry("the SPI sees only ring-buffers", SpiReachingIntoAProvider.class),
        Map.entry("providers see only the SPI and ring-buffers", ShmReachingIntoVerbsAndTheProtocol.class),
        Map.entry("shm never sees verbs", ShmReachingIntoVerbsAndTheProtocol.class),
        Map.entry("verbs never sees shm", VerbsReachingIntoShm.class),
        Map.entry("no provider sees another", VerbsReachingIntoShm.class),
        Map.entry("nothing below the API sees it", ProtocolReachingUp.class),
        Map.entry("the protocol sees the SPI, ring-buffers and codecs", ProtocolReachingUp.class),
        Map.entry("the driver sees neither providers nor the reactive layer", DriverReachingUp.class),
        Map.entry("the reactive layer sees neither providers nor the SPI", ReactiveReachingDown.class),
        Map.entry("the JVM options' check sees only the JDK", JvmCheckReachingAgrona.class),
        Map.entry("the API sees no provider", ApiReachingIntoAProvider.class),
        Map.entry("only the meter classes see Micrometer", ApiReachingMicrometer.class));

    static List<Rule> projectRules() {
        return rules(PROJECT);
    }

    static List<Rule> fixtureRules() {
        return rules(FIXTURE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("projectRules")
    void theCodeKeepsTheRule(final Rule rule) {
        rule.rule().check(production);
    }

    @Test
    void everyPackageTheRulesNameHoldsClasses() {
        for (final String name : PROJECT.all()) {
            assertThat(production.that(resideInAPackage(name))).as("classes in %s", name).isNotEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("projectRules")
    void theRuleFailsWhenItsClassesAreMissing(final Rule rule) {
        final JavaClasses none = new ClassFileImporter().importClasses();
        assertThatThrownBy(() -> rule.rule().evaluate(none))
            .as("a rule that checks nothing")
            .isInstanceOf(AssertionError.class)
            .hasMessageContaining("failed to check any classes");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtureRules")
    void theRuleReportsTheFixtureThatBreaksIt(final Rule rule) {
        assertThat(OFFENDERS).as("a fixture for every rule").containsOnlyKeys(
            fixtureRules().stream().map(Rule::name).toArray(String[]::new));
        final EvaluationResult result = rule.rule().evaluate(fixtures);
        assertThat(result.hasViolation()).as("%s reports a violation in the fixtures", rule).isTrue();
        assertThat(result.getFailureReport().toString()).contains(OFFENDERS.get(rule.name()).getName());
    }

    @Test
    void thePublicApiExposesNoInternalProviderOrForeignMemoryType() {
        final java.util.List<String> leaks = new java.util.ArrayList<>();
        int examined = 0;
        for (final var javaClass : production) {
            if (!javaClass.getPackageName().equals(PROJECT.api())
                || !javaClass.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.PUBLIC)) {
                continue;
            }
            examined++;
            for (final var member : javaClass.getMembers()) {
                if (!member.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.PUBLIC)) {
                    continue;
                }
                for (final var type : member.getAllInvolvedRawTypes()) {
                    final String name = type.getName();
                    if (name.startsWith("io.rdmareactive.internal.") || name.startsWith("io.rdmareactive.spi.")
                        || name.startsWith("io.rdmareactive.provider.") || name.startsWith("java.lang.foreign.")) {
                        leaks.add(member.getFullName() + " exposes " + name);
                    }
                }
            }
        }
        assertThat(examined).as("public classes of the API examined").isGreaterThan(10);
        assertThat(leaks).as("public API members that expose internals").isEmpty();
    }

    static final ArchRule LOGGING_GOES_THROUGH_REACTOR = noClasses().that().resideInAPackage("io.rdmareactive..")
        .should().dependOnClassesThat().resideInAnyPackage("java.util.logging..", "org.slf4j..")
        .orShould().dependOnClassesThat().belongToAnyOf(System.Logger.class, System.LoggerFinder.class)
        .because("every module logs through Reactor's Loggers, which use SLF4J when the application has it and the "
            + "console (or java.util.logging) otherwise: one format, one configuration");

    @Test
    void everythingLogsThroughReactorsLoggers() {
        LOGGING_GOES_THROUGH_REACTOR.check(production);
    }

    @Test
    void theLoggingRuleCatchesALoggerAroundReactor() {
        final var result = LOGGING_GOES_THROUGH_REACTOR
            .evaluate(new ClassFileImporter().importClasses(LogsAroundReactor.class));
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains("java.util.logging.Logger")
            .contains("java.lang.System$Logger");
    }

    /** A deliberate violation, for the test that proves the logging rule bites: loggers other than Reactor's. */
    static final class LogsAroundReactor {
        private static final java.util.logging.Logger JUL = java.util.logging.Logger.getLogger("fixture");
        private static final System.Logger SYSTEM = System.getLogger("fixture");

        private LogsAroundReactor() {
        }

        static void log() {
            JUL.warning("through java.util.logging");
            SYSTEM.log(System.Logger.Level.WARNING, "through System.Logger");
        }
    }
}
