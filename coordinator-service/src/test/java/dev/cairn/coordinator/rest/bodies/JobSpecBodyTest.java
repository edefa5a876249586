package dev.cairn.coordinator.rest.bodies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.CairnRecords;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TaskVertex;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The job registration body bound by Jackson: what is accepted, the defaults, and what each broken body is told. */
class JobSpecBodyTest {

    private static final String CONFIG =
            "\"config\":{\"intervalMs\":2000,\"timeoutMs\":10000,\"storageBaseLocation\":\"file:///tmp/cairn\"}";
    private static final String SOURCE = "{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1}],";

    @BeforeAll
    static void trustCairnRecordsBeforeBuildingAny() {
        CairnRecords.trustGeneratedClasses();
    }

    @Test
    void shouldBuildTheJobSpecWithEveryFieldWhenTheBodyGivesThem() {
        JobSpec spec = JobSpecBody.read("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":2,\"triggered\":true,"
                + "\"acknowledges\":true,\"notified\":false},{\"taskId\":\"sink\",\"parallelism\":1,"
                + "\"triggered\":false,\"acknowledges\":true,\"notified\":true}],\"config\":{\"intervalMs\":2000,"
                + "\"timeoutMs\":10000,\"minPauseMs\":500,\"maxConcurrent\":2,\"tolerableFailures\":3,\"retained\":4,"
                + "\"storageBaseLocation\":\"s3://bucket/cairn\",\"exactlyOnce\":false,\"unalignedEnabled\":true,"
                + "\"alignedTimeoutMs\":300,\"backupType\":\"INCREMENTAL\",\"savepointFormat\":\"NATIVE\"},"
                + "\"participants\":[\"enumerator\",\"reader\"],\"masterHooks\":[\"offsets-hook\"]}", "job-1", 42L,
                InputLimits.DEFAULTS);

        assertThat(spec.getJobId()).isEqualTo("job-1");
        assertThat(spec.getTimestampMs()).isEqualTo(42L);
        assertThat(spec.getTasks()).containsExactly(vertex("source", 2, true, true, false),
                vertex("sink", 1, false, true, true));
        assertThat(spec.getConfig()).isEqualTo(CheckpointConfig.newBuilder().setIntervalMs(2000).setTimeoutMs(10_000)
                .setMinPauseMs(500).setMaxConcurrent(2).setTolerableFailures(3).setRetained(4)
                .setStorageBaseLocation("s3://bucket/cairn").setExactlyOnce(false).setUnalignedEnabled(true)
                .setAlignedTimeoutMs(300).setBackupType(BackupType.INCREMENTAL)
                .setSavepointFormat(SavepointFormat.NATIVE).build());
        assertThat(spec.getParticipants()).containsExactly("enumerator", "reader");
        assertThat(spec.getMasterHooks()).containsExactly("offsets-hook");
    }

    @Test
    void shouldTakeTheSchemasDefaultsWhenOptionalFieldsAreLeftOutOrNull() {
        JobSpec spec = JobSpecBody.read("{\"tasks\":[{\"taskId\":\"source\",\"parallelism\":1,\"notified\":null}],"
                + CONFIG + ",\"participants\":null}", "job-1", 1L, InputLimits.DEFAULTS);

        assertThat(spec.getTasks()).containsExactly(vertex("source", 1, true, true, true));
        assertThat(spec.getConfig()).isEqualTo(CheckpointConfig.newBuilder().setIntervalMs(2000)
                .setTimeoutMs(10_000).setStorageBaseLocation("file:///tmp/cairn").build());
        assertThat(spec.getParticipants()).isEmpty();
    }

    @Test
    void shouldSetATasksMaxParallelismWhenTheBodyGivesItAndLeaveItToTheCoordinatorOtherwise() {
        JobSpec spec = JobSpecBody.read("{\"tasks\":[{\"taskId\":\"count\",\"parallelism\":2,"
                + "\"maxParallelism\":256},{\"taskId\":\"sink\",\"parallelism\":1,\"maxParallelism\":null}],"
                + CONFIG + "}", "job-1", 1L, InputLimits.DEFAULTS);

        assertThat(spec.getTasks()).extracting(TaskVertex::getTaskId, TaskVertex::getMaxParallelism)
                .containsExactly(tuple("count", 256), tuple("sink", null));
    }

    @Test
    void shouldNameTheMaxParallelismOfEachTaskWhenItIsMalformedOrOutOfBounds() {
        assertRejected("{\"tasks\":[{\"taskId\":\"a\",\"parallelism\":1,\"maxParallelism\":\"many\"},"
                + "{\"taskId\":\"b\",\"parallelism\":1,\"maxParallelism\":1.5},"
                + "{\"taskId\":\"c\",\"parallelism\":1,\"maxParallelism\":3000000000},"
                + "{\"taskId\":\"d\",\"parallelism\":1,\"maxParallelism\":0},"
                + "{\"taskId\":\"e\",\"parallelism\":1,\"maxParallelism\":32769},"
                + "{\"taskId\":\"f\",\"parallelism\":8,\"maxParallelism\":4}]," + CONFIG + "}")
                .hasMessage("tasks[0].maxParallelism must be a whole number, not the string \"many\"; "
                        + "tasks[1].maxParallelism must be a whole number, not the number 1.5; "
                        + "tasks[2].maxParallelism must be a whole number of at most 2147483647, not 3000000000; "
                        + "tasks[3].maxParallelism max parallelism must be between 1 and 32768, not 0; "
                        + "tasks[4].maxParallelism max parallelism must be between 1 and 32768, not 32769; "
                        + "tasks[5].maxParallelism parallelism 8 exceeds the max parallelism 4");
    }

    @Test
    void shouldAnswerEveryProblemOfTheSpecByItsJsonFieldWhenABodyHasSeveral() {
        assertRejected("{\"tasks\":[{\"taskId\":\"b\",\"parallelism\":0}],\"config\":{\"intervalMs\":0,"
                + "\"timeoutMs\":10,\"minPauseMs\":-1,\"maxConcurrent\":0,\"tolerableFailures\":-1,"
                + "\"retained\":3000000000,\"storageBaseLocation\":\" \"},\"participants\":[\" \",\"h\",\"h\"]}")
                .hasMessage("config.retained must be a whole number of at most 2147483647, not 3000000000; "
                        + "config.intervalMs must be in [1, 31622400000] but is 0; "
                        + "config.minPauseMs must be in [0, 31622400000] but is -1; "
                        + "config.maxConcurrent must be >= 1 but is 0; "
                        + "config.tolerableFailures must be >= 0 but is -1; "
                        + "config.storageBaseLocation is empty; "
                        + "tasks[0].parallelism must be in [1, 32768] but is 0; "
                        + "participants[0] is empty; participants[2] is named twice; name each participant once");
    }

    @Test
    void shouldNameEveryValueOfTheWrongTypeWhenTheBodyHasSeveral() {
        assertRejected("{\"tasks\":[{\"taskId\":7,\"parallelism\":1.5,\"triggered\":\"yes\"}],\"config\":{"
                + "\"intervalMs\":1,\"timeoutMs\":\"10s\",\"storageBaseLocation\":\"f\",\"unalignedEnabled\":1,"
                + "\"backupType\":\"incremental\",\"savepointFormat\":true},\"participants\":\"hook\"}")
                .hasMessageContaining("tasks[0].taskId must be a string, not the number 7")
                .hasMessageContaining("tasks[0].parallelism must be a whole number, not the number 1.5")
                .hasMessageContaining("tasks[0].triggered must be true or false, not the string \"yes\"")
                .hasMessageContaining("config.timeoutMs must be a whole number, not the string \"10s\"")
                .hasMessageContaining("config.unalignedEnabled must be true or false, not the number 1")
                .hasMessageContaining("config.backupType must be one of FULL, INCREMENTAL, not the string "
                        + "\"incremental\"")
                .hasMessageContaining("config.savepointFormat must be one of CANONICAL, NATIVE, not the boolean true")
                .hasMessageContaining("participants must be an array, not the string \"hook\"");
    }

    @Test
    void shouldNameUnknownFieldsAtEveryLevelWhenTheBodyHasThem() {
        assertRejected("{\"tasks\":[{\"taskId\":\"a\",\"parallelism\":1,\"role\":\"x\"}],\"config\":{\"intervalMs\":1,"
                + "\"timeoutMs\":1,\"storageBaseLocation\":\"f\",\"interval\":1},\"name\":\"x\"}")
                .hasMessageContaining("unknown field 'tasks[0].role' (known fields of tasks[0]: acknowledges, "
                        + "maxParallelism, notified, parallelism, taskId, triggered)")
                .hasMessageContaining("unknown field 'config.interval' (known fields of config: alignedTimeoutMs")
                .hasMessageContaining("unknown field 'name' (known fields: config, masterHooks, participants, tasks)");
    }

    @Test
    void shouldNameEveryRequiredFieldWhenItIsLeftOut() {
        assertRejected("{\"tasks\":[{\"parallelism\":1},null],\"config\":{}}")
                .hasMessage("tasks[0].taskId is missing; tasks[1] is missing; config.intervalMs is missing; "
                        + "config.timeoutMs is missing; config.storageBaseLocation is missing");
        assertRejected("{}").hasMessage("tasks is missing; config is missing");
    }

    @Test
    void shouldRejectAPlanThatCouldNeverCheckpointWhenNoTaskIsTriggeredOrAcknowledges() {
        assertRejected("{\"tasks\":[{\"taskId\":\"a\",\"parallelism\":1,\"triggered\":false,\"acknowledges\":false},"
                + "{\"taskId\":\"a\",\"parallelism\":1,\"triggered\":false,\"acknowledges\":false}]," + CONFIG + "}")
                .hasMessage("tasks[1].taskId 'a' is declared twice (first as task 1); give each task one entry; "
                        + "tasks[*].triggered is false for every task, so no checkpoint could ever start; make at "
                        + "least one task triggered (usually the sources); tasks[*].acknowledges is false for every "
                        + "task, so no checkpoint could ever complete; make at least one task acknowledge");
    }

    @Test
    void shouldNameTheJobIdInThePathWhenTheCoordinatorWouldRejectIt() {
        assertThatThrownBy(() -> JobSpecBody.read(SOURCE + CONFIG + "}", " ", 1L, InputLimits.DEFAULTS))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("the job id in the path is empty");
    }

    @Test
    void shouldRejectTasksAndConfigOfTheWrongShapeWhenTheyAreNotAnArrayAndAnObject() {
        assertRejected("{\"tasks\":{\"taskId\":\"a\"},\"config\":[]}")
                .hasMessage("tasks must be an array, not an object {\"taskId\":\"a\"}; "
                        + "config must be an object, not an array []");
        assertRejected("{\"tasks\":[\"source\"]," + CONFIG + "}")
                .hasMessage("tasks[0] must be an object, not the string \"source\"");
        assertRejected("{\"tasks\":[]," + CONFIG + "}").hasMessage("tasks is empty: a job has at least one task");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "|the body must be a job spec like",
            "{\"tasks\": |malformed JSON at line 1, column 10",
            "{\"tasks\":[],\"tasks\":[]}|Duplicate field 'tasks'",
            "[1]|the body must be a JSON object like",
            "{} {}|malformed JSON",
    })
    void shouldExplainTheBodyWhenItIsNotAJsonObject(String text, String expected) {
        assertRejected(text).hasMessageContaining(expected);
    }

    private static TaskVertex vertex(String taskId, int parallelism, boolean triggered, boolean acknowledges,
                                     boolean notified) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(parallelism).setTriggered(triggered)
                .setAcknowledges(acknowledges).setNotified(notified).build();
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(String text) {
        return assertThatThrownBy(() -> JobSpecBody.read(text, "job-1", 1L, InputLimits.DEFAULTS))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
    }
}
