package dev.cairn.kafka.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KafkaClusterSelectionTest {

    private static final BooleanSupplier NO_DOCKER = () -> false;
    private static final BooleanSupplier DOCKER = () -> true;
    private static final BooleanSupplier MUST_NOT_PROBE = () -> {
        throw new AssertionError("Docker must not be probed for an explicit choice");
    };

    @Test
    void shouldPickTheEmbeddedBrokerWhenAutoAndDockerIsUnavailable() {
        assertThat(KafkaClusterSelection.choose("auto", NO_DOCKER)).isEqualTo(KafkaClusterKind.EMBEDDED);
    }

    @Test
    void shouldPickTestcontainersWhenAutoAndDockerIsAvailable() {
        assertThat(KafkaClusterSelection.choose("auto", DOCKER)).isEqualTo(KafkaClusterKind.TESTCONTAINERS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  "})
    void shouldMeanAutoWhenThePropertyIsAbsentOrBlank(String blank) {
        assertThat(KafkaClusterSelection.choose(null, NO_DOCKER)).isEqualTo(KafkaClusterKind.EMBEDDED);
        assertThat(KafkaClusterSelection.choose(null, DOCKER)).isEqualTo(KafkaClusterKind.TESTCONTAINERS);
        assertThat(KafkaClusterSelection.choose(blank, NO_DOCKER)).isEqualTo(KafkaClusterKind.EMBEDDED);
    }

    @Test
    void shouldNotProbeDockerAndIgnoreCaseWhenTheChoiceIsExplicit() {
        assertThat(KafkaClusterSelection.choose("embedded", MUST_NOT_PROBE)).isEqualTo(KafkaClusterKind.EMBEDDED);
        assertThat(KafkaClusterSelection.choose(" Embedded ", MUST_NOT_PROBE)).isEqualTo(KafkaClusterKind.EMBEDDED);
        assertThat(KafkaClusterSelection.choose("testcontainers", MUST_NOT_PROBE))
                .isEqualTo(KafkaClusterKind.TESTCONTAINERS);
        assertThat(KafkaClusterSelection.choose("TESTCONTAINERS", MUST_NOT_PROBE))
                .isEqualTo(KafkaClusterKind.TESTCONTAINERS);
    }

    @Test
    void shouldFailNamingThePropertyAndTheAllowedValuesWhenTheValueIsUnknown() {
        assertThatThrownBy(() -> KafkaClusterSelection.choose("docker", MUST_NOT_PROBE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'docker'")
                .hasMessageContaining("cairn.kafka")
                .hasMessageContaining("embedded")
                .hasMessageContaining("testcontainers")
                .hasMessageContaining("auto");
    }
}
