package dev.cairn.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The signing flag of the end-to-end benchmark: signed unless {@code --unsigned}, and the report says which. */
class E2eOptionsTest {

    @Test
    void shouldSignByDefault() {
        E2eOptions options = E2eOptions.parse();

        assertThat(options.unsigned).isFalse();
        assertThat(options.describe()).anySatisfy(line -> assertThat(line).startsWith("sidecar records signed"));
    }

    @Test
    void shouldMeasureTheUnsignedModeWithTheFlag() {
        E2eOptions options = E2eOptions.parse("--unsigned");

        assertThat(options.unsigned).isTrue();
        assertThat(options.describe()).anySatisfy(line -> assertThat(line).startsWith("sidecar records unsigned"))
                .noneSatisfy(line -> assertThat(line).startsWith("sidecar records signed"));
    }
}
