package dev.cairn.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoMainIT {

    /**
     * The retained checkpoint, the one in flight, a subsumed one and an aborted one whose discards are under way; and
     * while the rescale's new workers start, the two their predecessors left (the retained checkpoint the savepoint
     * pushed out, the one its stop aborted), which the new workers delete once they run (5 and 6 measured).
     */
    private static final long CHECKPOINTS_AT_ONCE = 6;

    @Test
    void shouldRunThePipelineExactlyOnceThroughAKillAStopARedeployFromTheSavepointARescaleAndADrainingStop() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);

        int exit = new CommandLine(new DemoMain(out)).execute("--job", "it-job", "--partitions", "2", "--duration",
                "PT8S", "--events", "20000", "--http-port", "0");

        String printed = buffer.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isZero();
        assertThat(printed)
                .contains("coordinator started (Kafka Streams, exactly-once) on 2 partitions per topic")
                .containsPattern("Web page: http://127\\.0\\.0\\.1:\\d+/   Metrics: "
                        + "http://127\\.0\\.0\\.1:\\d+/metrics")
                .contains("Registered job spec for 'it-job': tasks source x2, count x2, sink x2")
                .containsPattern("Checkpoints and savepoints go to an S3 API server \\(S3Proxy\\) in this JVM at "
                        + "http://127\\.0\\.0\\.1:\\d+, bucket cairn-demo")
                .contains("storage s3://cairn-demo/checkpoints")
                .contains("Started the pipeline's 6 subtasks as worker processes")
                .contains("Producing the first 10,000 of 20,000 events over 1,000 keys")
                .contains("$ cairn trigger --job it-job --savepoint --target s3://cairn-demo/savepoints/sp-1")
                .contains("Killed count-1 (SIGKILL) halfway")
                .containsPattern("Operator count.*from checkpoint \\d+ as generation")
                .containsPattern("Workers: [1-9]\\d* restarted, exit statuses after the stop \\[0, 0, 0, 0, 0, 0\\]")
                .contains("$ cairn savepoint list --job it-job")
                .containsPattern("Redeployed the stopped job: started \\[.*sink-1.*\\] again as new worker processes")
                .containsPattern("Producing the other [1-9][0-9,]* events")
                .containsPattern("\\$ cairn stop --job it-job --target s3://cairn-demo/savepoints/final-\\d+ "
                        + "--request-id final-\\d+-\\S+ --drain")
                .containsPattern("Stopped the job with savepoint \\d+ after the tasks drained: the job is FINISHED")
                .containsPattern("\\$ cairn rescale --job it-job --parallelism count=3 --target "
                        + "s3://cairn-demo/savepoints/rescale-\\d+")
                .containsPattern("Rescaled the counting task to 3 subtasks: the job stopped with savepoint \\d+ and "
                        + "resumed from it; every worker exited \\[0, 0, 0, 0, 0, 0\\]")
                .containsPattern("Started the workers of the new parallelism: \\[.*count-2.*\\]")
                .contains("the job checkpoints again with 7 subtasks")
                .contains("Workers: exit statuses after the final stop [0, 0, 0, 0, 0, 0, 0]")
                .contains("Exactly once: 1,000 keys, 20,000 events, 20,000 results committed, every count 1..n "
                        + "exactly once")
                .containsPattern("completed: [1-9]\\d* \\[1, ")
                .containsPattern("\\$ cairn audit timeline --job it-job --checkpoint \\d+")
                .contains("$ cairn audit verify --rest-url http://127.0.0.1:")
                .contains("$ cairn audit check")
                .doesNotContain("(exit 1)")
                .doesNotContain("(exit 2)");
        Matcher stop = Pattern.compile("Stopped the job with savepoint (\\d+), the tasks stopped where they were: "
                + "the job is FINISHED").matcher(printed);
        assertThat(stop.find()).as("the first stop, without --drain, completed: %s", printed).isTrue();
        String savepoint = stop.group(1);
        assertThat(printed)
                .as("the job resumes from the stop's savepoint, which the new workers restore")
                .contains("RUNNING again from checkpoint " + savepoint + " (NO_CLAIM)")
                .contains("The new workers restored savepoint " + savepoint)
                .containsPattern("Source source-0: restored checkpoint " + savepoint + "\\b");
        Matcher storage = Pattern.compile("Storage: s3://cairn-demo/checkpoints/it-job holds ([\\d,]+) objects, "
                + "([\\d,]+) bytes, of (\\d+) checkpoints \\[[\\d, ]*\\], after (\\d+) completed checkpoints; while "
                + "the job ran, at most ([\\d,]+) objects, ([\\d,]+) bytes and (\\d+) checkpoints \\((\\d+) samples")
                .matcher(printed);
        assertThat(storage.find()).as("the demo measures its bucket: %s", printed).isTrue();
        long completed = number(storage.group(4));
        assertThat(completed).as("completed checkpoints").isGreaterThanOrEqualTo(8);
        assertThat(number(storage.group(3)))
                .as("the final stop's savepoint subsumed the retained checkpoint, and the workers deleted what the "
                        + "coordinator discarded: at most one checkpoint is left of %d", completed)
                .isLessThanOrEqualTo(1L);
        assertThat(number(storage.group(5))).as("while the job ran, the bucket held its states").isPositive()
                .isLessThanOrEqualTo(maxObjects());
        assertThat(number(storage.group(7)))
                .as("while the job ran, at most the retained checkpoint, the one in flight, and those whose discard "
                        + "was under way, of %d completed", completed)
                .isLessThanOrEqualTo(CHECKPOINTS_AT_ONCE);
        assertThat(number(storage.group(8))).as("samples, one a second").isGreaterThan(5);
        assertThat(printed).containsPattern("Storage: the savepoints, the user's until disposed of, hold [1-9][\\d,]* "
                + "objects");
    }

    /**
     * The most objects the job's checkpoints may hold at once: {@link #CHECKPOINTS_AT_ONCE} checkpoints of one state
     * per subtask, a sink's output part and, for each count subtask, at most 128 key groups.
     */
    private static long maxObjects() {
        return CHECKPOINTS_AT_ONCE * (6 + 2 + 2 * 128);
    }

    private static long number(String figure) {
        return Long.parseLong(figure.replace(",", ""));
    }

    @Test
    void shouldExplainAnUnknownStorage() {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new DemoMain(System.out));
        command.setErr(new java.io.PrintWriter(errors, true, StandardCharsets.UTF_8));

        int exit = command.execute("--storage", "hdfs");

        assertThat(exit).isEqualTo(2);
        assertThat(errors.toString(StandardCharsets.UTF_8)).contains("--storage must be s3 or file, was hdfs");
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

    @Test
    void shouldExplainANonPositiveEventCount() {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new DemoMain(System.out));
        command.setErr(new java.io.PrintWriter(errors, true, StandardCharsets.UTF_8));

        int exit = command.execute("--events", "0");

        assertThat(exit).isEqualTo(2);
        assertThat(errors.toString(StandardCharsets.UTF_8)).contains("--events and --keys must be positive");
    }

    @Test
    void shouldExplainANegativeLinger() {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new DemoMain(System.out));
        command.setErr(new java.io.PrintWriter(errors, true, StandardCharsets.UTF_8));

        int exit = command.execute("--linger", "-PT1S");

        assertThat(exit).isEqualTo(2);
        assertThat(errors.toString(StandardCharsets.UTF_8)).contains("--linger must not be negative");
    }

    @Test
    void shouldExplainAnHttpPortOutOfRange() {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new DemoMain(System.out));
        command.setErr(new java.io.PrintWriter(errors, true, StandardCharsets.UTF_8));

        int exit = command.execute("--http-port", "70000");

        assertThat(exit).isEqualTo(2);
        assertThat(errors.toString(StandardCharsets.UTF_8)).contains("--http-port must be 0..65535");
    }

    @Test
    void shouldExplainAMalformedDuration() {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new DemoMain(System.out));
        command.setErr(new java.io.PrintWriter(errors, true, StandardCharsets.UTF_8));

        int exit = command.execute("--duration", "ten seconds");

        assertThat(exit).isEqualTo(2);
        assertThat(errors.toString(StandardCharsets.UTF_8)).contains("Invalid value for option '--duration'");
    }
}
