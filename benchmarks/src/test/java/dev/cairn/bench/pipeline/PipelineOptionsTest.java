package dev.cairn.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PipelineOptionsTest {

    @Test
    void shouldDefaultToTheDocumentedRun() {
        PipelineOptions options = PipelineOptions.parse();

        assertThat(options.events).isEqualTo(500_000);
        assertThat(options.keys).isEqualTo(1_000);
        assertThat(options.repetitions).isEqualTo(3);
        assertThat(options.checkpointIntervalMs).isEqualTo(1_000);
        assertThat(options.rate).isZero();
    }

    @Test
    void shouldNameAnUnknownFlag() {
        assertThatThrownBy(() -> PipelineOptions.parse("--event=10"))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--event=10");
    }

    @Test
    void shouldNameAFlagWhoseValueIsNotANumber() {
        assertThatThrownBy(() -> PipelineOptions.parse("--events=many"))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--events")
                .hasMessageContaining("many");
    }

    @Test
    void shouldNameAFlagWhoseValueIsOutOfRange() {
        assertThatThrownBy(() -> PipelineOptions.parse("--repetitions=0"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("--repetitions must be at least 1, was 0");
        assertThatThrownBy(() -> PipelineOptions.parse("--events=10", "--keys=20"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("--keys must be between 1 and --events, was 20");
    }
}
