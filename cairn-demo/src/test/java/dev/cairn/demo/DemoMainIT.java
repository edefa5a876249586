package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoMainIT {

    @Test
    void shouldRunTheDemoAgainstARealBrokerAndExitZero() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);

        int exit = new CommandLine(new DemoMain(out)).execute("--job", "it-job", "--partitions", "2");

        String printed = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isZero();
        assertThat(printed)
                .contains("Topics ready (2 partitions each): cairn.requests, cairn.acks, cairn.journal")
                .contains("job spec for 'it-job': tasks source x1, map x2, sink x1")
                .contains("checkpoint request")
                .contains("Every event read back equals the event sent.");
    }

    @Test
    void shouldExplainAMalformedFlag() {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new DemoMain(System.out));
        command.setErr(new java.io.PrintWriter(errors, true, StandardCharsets.UTF_8));

        int exit = command.execute("--partitions", "three");

        assertThat(exit).isEqualTo(2);
        assertThat(errors.toString(StandardCharsets.UTF_8))
                .contains("Invalid value for option '--partitions'")
                .contains("'three' is not an int");
    }
}
