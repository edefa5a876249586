package dev.cairn.coordinator.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.domain.SnapshotOptionsRules;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The job registration body: what is accepted, the defaults, and what each broken body is told. */
class JobSpecBodyTest {

    @BeforeAll
    static void trustCairnRecordsBeforeBuildingAny() {
        CairnRecords.trustGeneratedClasses();
    }

    private static final String CONFIG =
            "\"config\":{\"intervalMs\":2000,\"timeoutMs\":10000,\"storageBaseLocation\":\"file:///tmp/cairn\"}";

    @Test
    void shouldReadEveryField() {
        JobSpecBody body = JobSpecBody.parse("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":2,"
                + "\"triggered\":true,\"acknowledges\":true,\"notified\":false},{\"taskId\":\"sink\",\"parallelism\":1,"
                + "\"triggered\":false,\"acknowledges\":true,\"notified\":true}],\"config\":{\"intervalMs\":2000,"
                + "\"timeoutMs\":10000,\"minPauseMs\":500,\"maxConcurrent\":2,\"tolerableFailures\":3,\"retained\":4,"
                + "\"storageBaseLocation\":\"s3://bucket/cairn\"}}");

        assertThat(body.tasks()).containsExactly(vertex("source", 2, true, true, false),
                vertex("sink", 1, false, true, true));
        assertThat(body.config()).isEqualTo(CheckpointConfig.newBuilder().setIntervalMs(2000).setTimeoutMs(10_000)
                .setMinPauseMs(500).setMaxConcurrent(2).setTolerableFailures(3).setRetained(4)
                .setStorageBaseLocation("s3://bucket/cairn").build());
    }

    @Test
    void shouldDefaultTheRolesAndTheOptionalConfigToTheSchemasDefaults() {
        JobSpecBody body = JobSpecBody.parse("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1,"
                + "\"notified\":null}]," + CONFIG + "}");

        assertThat(body.tasks()).containsExactly(vertex("source", 1, true, true, true));
        assertThat(body.config().getMinPauseMs()).isZero();
        assertThat(body.config().getMaxConcurrent()).isEqualTo(1);
        assertThat(body.config().getTolerableFailures()).isZero();
        assertThat(body.config().getRetained()).isEqualTo(1);
    }

    @Test
    void shouldBuildAJobSpecStampedNow() {
        JobSpec spec = JobSpecBody.parse("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1}]," + CONFIG + "}")
                .toSpec("job-1", 42L);

        assertThat(spec.getJobId()).isEqualTo("job-1");
        assertThat(spec.getTasks()).containsExactly(vertex("source", 1, true, true, true));
        assertThat(spec.getConfig().getStorageBaseLocation()).isEqualTo("file:///tmp/cairn");
        assertThat(spec.getTimestampMs()).isEqualTo(42L);
    }

    @Test
    void shouldReadTheSnapshotConfigAndTheParticipantsIntoTheJobSpec() {
        JobSpec spec = JobSpecBody.parse("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1}],"
                + "\"config\":{\"intervalMs\":2000,\"timeoutMs\":10000,\"storageBaseLocation\":\"file:///tmp/cairn\","
                + "\"exactlyOnce\":false,\"unalignedEnabled\":true,\"alignedTimeoutMs\":300,"
                + "\"backupType\":\"INCREMENTAL\",\"savepointFormat\":\"NATIVE\"},"
                + "\"participants\":[\"offsets-hook\",\"enumerator\"]}").toSpec("job-1", 42L);

        assertThat(spec.getConfig()).isEqualTo(CheckpointConfig.newBuilder().setIntervalMs(2000).setTimeoutMs(10_000)
                .setStorageBaseLocation("file:///tmp/cairn").setExactlyOnce(false).setUnalignedEnabled(true)
                .setAlignedTimeoutMs(300).setBackupType(BackupType.INCREMENTAL)
                .setSavepointFormat(SavepointFormat.NATIVE).build());
        assertThat(spec.getParticipants()).containsExactly("offsets-hook", "enumerator");
    }

    @Test
    void shouldDefaultTheSnapshotConfigToFlinksDefaultsAndTheParticipantsToNone() {
        JobSpecBody body = JobSpecBody.parse("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1}]," + CONFIG
                + ",\"participants\":null}");

        assertThat(body.config().getExactlyOnce()).isTrue();
        assertThat(body.config().getUnalignedEnabled()).isFalse();
        assertThat(body.config().getAlignedTimeoutMs()).isZero();
        assertThat(SnapshotOptionsRules.backupType(body.config())).isEqualTo(BackupType.FULL);
        assertThat(SnapshotOptionsRules.savepointFormat(body.config())).isEqualTo(SavepointFormat.CANONICAL);
        assertThat(body.participants()).isEmpty();
        assertThat(body.toSpec("job-1", 1L).getParticipants()).isEmpty();
    }

    @Test
    void shouldNameEveryMalformedSnapshotConfigValue() {
        assertRejected("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1}],\"config\":{\"intervalMs\":1,"
                + "\"timeoutMs\":1,\"storageBaseLocation\":\"f\",\"exactlyOnce\":\"yes\",\"unalignedEnabled\":1,"
                + "\"alignedTimeoutMs\":-5,\"backupType\":\"incremental\",\"savepointFormat\":true}}")
                .hasMessage("config.exactlyOnce must be true or false, not the string \"yes\"; "
                        + "config.unalignedEnabled must be true or false, not the number 1; "
                        + "config.alignedTimeoutMs must be >= 0, not -5; "
                        + "config.backupType must be one of FULL, INCREMENTAL, not the string \"incremental\"; "
                        + "config.savepointFormat must be one of CANONICAL, NATIVE, not the boolean true");
    }

    @Test
    void shouldNameEveryMalformedParticipant() {
        String tasks = "{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1}]," + CONFIG;
        assertRejected(tasks + ",\"participants\":\"hook\"}")
                .hasMessage("participants must be an array of names, like [\"offsets-hook\"], not the string \"hook\"");
        assertRejected(tasks + ",\"participants\":[1,\" \",\"hook\",\"hook\"]}")
                .hasMessage("participants[0] must be a string, not the number 1; participants[1] must not be blank; "
                        + "participants[3] 'hook' is named twice; name each participant once");
    }

    @Test
    void shouldCopyTheParticipants() {
        List<String> participants = new ArrayList<>(List.of("hook"));
        JobSpecBody body = new JobSpecBody(List.of(), null, participants);
        participants.clear();

        assertThat(body.participants()).containsExactly("hook");
    }

    @Test
    void shouldRejectWhatTheCoordinatorWouldReject() {
        JobSpecBody body = JobSpecBody.parse("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1}]," + CONFIG + "}");

        assertThatThrownBy(() -> body.toSpec(" ", 1L))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("the coordinator would reject this job: job id is empty");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "|the body must be a job spec like",
            "{\"tasks\": |malformed JSON at line 1, column 10",
            "{\"tasks\":[],\"tasks\":[]}|Duplicate field 'tasks'",
            "[1]|the body must be a JSON object like",
            "{}|tasks is missing: list the job's tasks; config is missing: give the checkpoint configuration",
    })
    void shouldExplainABodyThatIsNotAJobSpec(String text, String expected) {
        String[] parts = expected.split("; ");
        AbstractThrowableAssert<?, ? extends Throwable> rejected = assertRejected(text);
        for (String part : parts) {
            rejected.hasMessageContaining(part);
        }
    }

    @Test
    void shouldNameUnknownFieldsAtEveryLevel() {
        assertRejected("{\"tasks\":[{\"taskId\":\"a\",\"parallelism\":1,\"role\":\"x\"}],\"config\":{\"intervalMs\":1,"
                + "\"timeoutMs\":1,\"storageBaseLocation\":\"f\",\"interval\":1},\"name\":\"x\"}")
                .hasMessage("unknown field 'name' (known fields: tasks, config, participants); "
                        + "unknown field 'tasks[0].role' (known fields of tasks[0]: " + String.join(", ",
                        JobSpecBody.TASK_FIELDS) + "); "
                        + "unknown field 'config.interval' (known fields of config: " + String.join(", ",
                        JobSpecBody.CONFIG_FIELDS) + ")");
    }

    @Test
    void shouldNameEveryValueOfTheWrongTypeOrOutOfRange() {
        assertRejected("{\"tasks\":[{\"taskId\":7,\"parallelism\":1.5,\"triggered\":\"yes\"},"
                + "{\"taskId\":\"b\",\"parallelism\":0}],\"config\":{\"intervalMs\":0,\"timeoutMs\":\"10s\","
                + "\"minPauseMs\":-1,\"maxConcurrent\":0,\"tolerableFailures\":-1,\"retained\":3000000000,"
                + "\"storageBaseLocation\":\" \"}}")
                .hasMessage("tasks[0].taskId must be a string, not the number 7; "
                        + "tasks[0].parallelism must be a whole number, not the number 1.5; "
                        + "tasks[0].triggered must be true or false, not the string \"yes\"; "
                        + "tasks[1].parallelism must be >= 1, not 0; "
                        + "config.intervalMs must be >= 1, not 0; "
                        + "config.timeoutMs must be a whole number, not the string \"10s\"; "
                        + "config.minPauseMs must be >= 0, not -1; "
                        + "config.maxConcurrent must be >= 1, not 0; "
                        + "config.tolerableFailures must be >= 0, not -1; "
                        + "config.retained must be at most 2147483647, not 3000000000; "
                        + "config.storageBaseLocation must not be blank");
    }

    @Test
    void shouldRejectAPlanThatCouldNeverCheckpoint() {
        assertRejected("{\"tasks\":[{\"taskId\":\"a\",\"parallelism\":1,\"triggered\":false,\"acknowledges\":false},"
                + "{\"taskId\":\"a\",\"parallelism\":1,\"triggered\":false,\"acknowledges\":false}]," + CONFIG + "}")
                .hasMessage("tasks[1].taskId 'a' is declared twice; give each task one entry; "
                        + "no task is triggered, so no checkpoint could ever start; set \"triggered\": true on at "
                        + "least one task (usually the sources); no task acknowledges, so no checkpoint could ever "
                        + "complete; set \"acknowledges\": true on at least one task");
    }

    @Test
    void shouldRejectTasksAndConfigOfTheWrongShape() {
        assertRejected("{\"tasks\":{\"taskId\":\"a\"},\"config\":[]}")
                .hasMessageStartingWith("tasks must be an array of tasks, not an object {\"taskId\":\"a\"}; "
                        + "config must be an object like");
        assertRejected("{\"tasks\":[\"source\"]," + CONFIG + "}")
                .hasMessageStartingWith("tasks[0] must be an object like")
                .hasMessageEndingWith("not the string \"source\"");
        assertRejected("{\"tasks\":[]," + CONFIG + "}")
                .hasMessage("tasks must not be empty: a job has at least one task");
    }

    @Test
    void shouldCopyTheTasks() {
        List<TaskVertex> tasks = new ArrayList<>(List.of(vertex("a", 1, true, true, true)));
        JobSpecBody body = new JobSpecBody(tasks, null, List.of());
        tasks.clear();

        assertThat(body.tasks()).hasSize(1);
    }

    private static TaskVertex vertex(String taskId, int parallelism, boolean triggered, boolean acknowledges,
                                     boolean notified) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(parallelism).setTriggered(triggered)
                .setAcknowledges(acknowledges).setNotified(notified).build();
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(String text) {
        return assertThatThrownBy(() -> JobSpecBody.parse(text))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
}
