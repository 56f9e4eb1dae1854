package io.rdmareactive.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.rdmareactive.architecture.fixture.SpiThatReachesIntoAProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and package rules of docs/architecture.md, kept by the build: a forbidden dependency fails this test and so
 * {@code ./mvnw verify}. Dependencies point one way: ring-buffers and codecs see Agrona and the JDK only; inside core,
 * the SPI sees ring-buffers, providers see the SPI and ring-buffers and never each other, and nothing below the API
 * sees the API.
 */
class DependencyRulesTest {

    private static final String JDK = "java..";
    private static final String AGRONA = "org.agrona..";
    private static final String RING = "io.rdmareactive.ring..";
    private static final String CODEC = "io.rdmareactive.codec..";
    private static final String SPI = "io.rdmareactive.spi..";

    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rdmareactive");
    }

    static final ArchRule RING_BUFFERS_SEE_ONLY_AGRONA = classes().that().resideInAPackage(RING)
        .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, RING)
        .because("ring-buffers is the bottom module: Agrona and the JDK only");

    static final ArchRule CODECS_SEE_ONLY_AGRONA = classes().that().resideInAPackage(CODEC)
        .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, CODEC)
        .because("the codecs module depends on Agrona alone");

    static final ArchRule SPI_SEES_ONLY_RING_BUFFERS = classes().that().resideInAPackage("io.rdmareactive.spi")
        .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, RING, "io.rdmareactive.spi")
        .because("the SPI is the contract below the protocol: it may see ring-buffers only");

    static final ArchRule PROVIDERS_SEE_ONLY_SPI_AND_RING_BUFFERS = classes().that()
        .resideInAPackage("io.rdmareactive.provider..")
        // jdk.net: the JDK's extended socket options (SO_PEERCRED, which the shm provider asks of its sockets)
        .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, "jdk.net..", AGRONA, RING, "io.rdmareactive.spi",
            "io.rdmareactive.provider..")
        .because("providers never see the protocol, the reactive layer or the API");

    static final ArchRule PROVIDERS_NEVER_SEE_EACH_OTHER = noClasses().that()
        .resideInAPackage("io.rdmareactive.provider.shm..")
        .should().dependOnClassesThat().resideInAPackage("io.rdmareactive.provider.verbs..")
        .orShould().dependOnClassesThat().resideInAPackage("io.rdmareactive.provider.tcp..")
        .because("providers never see each other");

    static final ArchRule VERBS_NEVER_SEES_SHM = noClasses().that()
        .resideInAPackage("io.rdmareactive.provider.verbs..")
        .should().dependOnClassesThat().resideInAPackage("io.rdmareactive.provider.shm..")
        .because("providers never see each other");

    static final ArchRule SPI_DEMO_USES_ONLY_THE_SPI = classes().that().resideInAPackage("io.rdmareactive.spi.demo..")
        .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, "io.rdmareactive.spi..")
        .because("the demo goes through the SPI, as the protocol does, never a provider's classes");

    static final ArchRule NOTHING_BELOW_THE_API_SEES_IT = noClasses().that()
        .resideInAnyPackage(RING, CODEC, SPI, "io.rdmareactive.provider..", "io.rdmareactive.internal..")
        .should().dependOnClassesThat().resideInAPackage("io.rdmareactive")
        .because("the public API sits on top; dependencies point down");

    static final ArchRule PROTOCOL_SEES_SPI_RING_AND_CODECS = classes().that()
        .resideInAPackage("io.rdmareactive.internal.protocol..")
        .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, RING, CODEC, "io.rdmareactive.spi",
            "io.rdmareactive.internal.protocol..", "javax.crypto..")
        .allowEmptyShould(true)
        .because("the protocol is written once against the SPI (and the JDK's HMAC for the authenticated handshake)");

    static final ArchRule DRIVER_SEES_SPI_AND_PROTOCOL = noClasses().that()
        .resideInAPackage("io.rdmareactive.internal.driver..")
        .should().dependOnClassesThat().resideInAnyPackage("io.rdmareactive.provider..", "io.rdmareactive.internal.reactive..")
        .allowEmptyShould(true)
        .because("the driver reaches providers only through the SPI, and never the reactive layer above it");

    static final ArchRule REACTIVE_LAYER_SEES_PROTOCOL_AND_DRIVER = noClasses().that()
        .resideInAPackage("io.rdmareactive.internal.reactive..")
        .should().dependOnClassesThat().resideInAnyPackage("io.rdmareactive.provider..", "io.rdmareactive.spi..")
        .because("the reactive layer reaches the wire only through the protocol and the driver");

    static final ArchRule JVM_CHECK_SEES_ONLY_THE_JDK = classes().that().resideInAPackage("io.rdmareactive.internal")
        .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, "io.rdmareactive.internal")
        .because("the JVM's options are checked before anything of Agrona initialises, which fails without them");

    static final ArchRule API_SEES_NO_PROVIDER = noClasses().that().resideInAPackage("io.rdmareactive")
        .should().dependOnClassesThat().resideInAPackage("io.rdmareactive.provider..")
        .because("the API chooses providers by name through the SPI, never by class");

    @Test
    void reactiveLayerAndApiKeepTheirRules() {
        REACTIVE_LAYER_SEES_PROTOCOL_AND_DRIVER.check(production);
        API_SEES_NO_PROVIDER.check(production);
    }

    @Test
    void thePublicApiExposesNoInternalProviderOrForeignMemoryType() {
        final java.util.List<String> leaks = new java.util.ArrayList<>();
        for (final var javaClass : production) {
            if (!javaClass.getPackageName().equals("io.rdmareactive")
                || !javaClass.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.PUBLIC)) {
                continue;
            }
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
        assertThat(leaks).as("public API members that expose internals").isEmpty();
    }

    @Test
    void ringBuffersSeeOnlyAgrona() {
        RING_BUFFERS_SEE_ONLY_AGRONA.check(production);
    }

    @Test
    void codecsSeeOnlyAgrona() {
        CODECS_SEE_ONLY_AGRONA.check(production);
    }

    @Test
    void spiSeesOnlyRingBuffers() {
        SPI_SEES_ONLY_RING_BUFFERS.check(production);
    }

    @Test
    void providersSeeOnlySpiAndRingBuffers() {
        PROVIDERS_SEE_ONLY_SPI_AND_RING_BUFFERS.check(production);
    }

    @Test
    void providersNeverSeeEachOther() {
        PROVIDERS_NEVER_SEE_EACH_OTHER.allowEmptyShould(true).check(production);
        VERBS_NEVER_SEES_SHM.allowEmptyShould(true).check(production);
    }

    @Test
    void spiDemoUsesOnlyTheSpi() {
        SPI_DEMO_USES_ONLY_THE_SPI.check(production);
    }

    @Test
    void nothingBelowTheApiSeesIt() {
        NOTHING_BELOW_THE_API_SEES_IT.check(production);
    }

    @Test
    void internalLayersKeepTheirRules() {
        PROTOCOL_SEES_SPI_RING_AND_CODECS.check(production);
        DRIVER_SEES_SPI_AND_PROTOCOL.check(production);
        JVM_CHECK_SEES_ONLY_THE_JDK.check(production);
    }

    @Test
    void theRulesCatchAForbiddenImport() {
        // a test fixture in io.rdmareactive.spi.. that reaches into a provider: the SPI rule must report it
        final JavaClasses offender = new ClassFileImporter().importClasses(SpiThatReachesIntoAProvider.class);
        final var result = classes().that().haveSimpleName("SpiThatReachesIntoAProvider")
            .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, AGRONA, RING, "io.rdmareactive.spi..")
            .evaluate(offender);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains("io.rdmareactive.provider.shm.ShmProvider");
    }
}
