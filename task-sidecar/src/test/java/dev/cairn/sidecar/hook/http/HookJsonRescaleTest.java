package dev.cairn.sidecar.hook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.OperatorStateMode;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The JSON of a rescale: what a snapshot result declares, and what a restore body hands a subtask. */
class HookJsonRescaleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** New subtask 1 of 3 (2 before), max parallelism 128: two keyed states, one union state. */
    static final RestorePoint RESCALED = new RestorePoint(5, null, 0, true, List.of(), 3, 2, 128,
            new KeyGroupRange(43, 85), List.of(
                    new RestoredState(0, "file:///cp/chk-5/map-0", 640, List.of(), new KeyGroupRange(0, 63), null),
                    new RestoredState(1, "file:///cp/chk-5/map-1", 640,
                            List.of(SharedObject.reused("file:///cp/shared/sst-3", 90)), new KeyGroupRange(64, 127),
                            null),
                    new RestoredState(0, "file:///cp/chk-5/offsets-0", 12, List.of(), null, OperatorStateMode.UNION)));

    @Test
    void shouldReadBackARescaledPointWhenWrittenByHookJson() throws Exception {
        String body = HookJson.restore(Optional.of(RESCALED), Optional.of(new AttemptNumber("a-1", 41)));

        assertThat(HookJson.parseRestore(body)).contains(RESCALED);
        assertThat(HookJson.parseAttempt(body)).contains(new AttemptNumber("a-1", 41));
    }

    @Test
    void shouldWriteTheTasksLayoutAndEveryStateWhenTheSubtaskWasRescaled() throws Exception {
        assertThat(JSON.readTree(HookJson.restore(Optional.of(RESCALED)))).isEqualTo(JSON.readTree("""
                {"checkpointId":5,"sizeBytes":0,"chosen":true,"shared":[],
                 "parallelism":3,"previousParallelism":2,"maxParallelism":128,"rescaled":true,
                 "keyGroups":{"startKeyGroup":43,"endKeyGroup":85},
                 "states":[
                   {"fromSubtask":0,"location":"file:///cp/chk-5/map-0","sizeBytes":640,"shared":[],
                    "keyGroups":{"startKeyGroup":0,"endKeyGroup":63}},
                   {"fromSubtask":1,"location":"file:///cp/chk-5/map-1","sizeBytes":640,
                    "shared":[{"location":"file:///cp/shared/sst-3","sizeBytes":90,"reused":true}],
                    "keyGroups":{"startKeyGroup":64,"endKeyGroup":127}},
                   {"fromSubtask":0,"location":"file:///cp/chk-5/offsets-0","sizeBytes":12,"shared":[],
                    "operatorStateMode":"UNION"}]}"""));
    }

    @Test
    void shouldReadBackTheOwnStateWithTheTasksLayoutWhenTheParallelismIsTheSame() throws Exception {
        KeyGroupRange mine = new KeyGroupRange(64, 127);
        RestorePoint same = new RestorePoint(5, "file:///cp/chk-5/map-1", 640, false, List.of(), 2, 2, 128, mine,
                List.of(new RestoredState(1, "file:///cp/chk-5/map-1", 640, List.of(), mine, null)));

        String body = HookJson.restore(Optional.of(same));

        assertThat(HookJson.parseRestore(body)).contains(same);
        assertThat(JSON.readTree(body).get("rescaled").asBoolean()).isFalse();
    }

    @Test
    void shouldReadAPointOfAnOlderCoordinatorAsItsOwnStateWhenWrittenByHookJson() throws Exception {
        RestorePoint older = new RestorePoint(4, "file:///cp/chk-4/map-1", 99);

        String body = HookJson.restore(Optional.of(older));

        assertThat(HookJson.parseRestore(body)).contains(older);
        assertThat(JSON.readTree(body)).isEqualTo(JSON.readTree("""
                {"checkpointId":4,"location":"file:///cp/chk-4/map-1","sizeBytes":99,"shared":[],"rescaled":false,
                 "states":[{"fromSubtask":-1,"location":"file:///cp/chk-4/map-1","sizeBytes":99,"shared":[]}]}"""));
    }

    @Test
    void shouldReadTheOwnStateAloneWhenARescaleBodyHasNoStates() throws Exception {
        Optional<RestorePoint> point = HookJson.parseRestore("{\"checkpointId\":5,\"location\":\"a\",\"sizeBytes\":1,"
                + "\"parallelism\":2,\"maxParallelism\":128}");

        assertThat(point).contains(new RestorePoint(5, "a", 1, false, List.of(), 2, 2, 128, null,
                List.of(new RestoredState(-1, "a", 1, List.of()))));
    }

    @Test
    void shouldReadBackWhatAResultDeclaresWhenWrittenByHookJson() throws Exception {
        SnapshotResult keyed = SnapshotResult.of("file:///s/1", 9).withKeyGroups(new KeyGroupRange(0, 31));
        SnapshotResult union = SnapshotResult.of("file:///s/1", 9).withOperatorStateMode(OperatorStateMode.UNION);

        assertThat(HookJson.parseSnapshotResult(HookJson.snapshotResult(keyed))).isEqualTo(keyed);
        assertThat(HookJson.parseSnapshotResult(HookJson.snapshotResult(union))).isEqualTo(union);
        assertThat(JSON.readTree(HookJson.snapshotResult(keyed)).get("keyGroups"))
                .isEqualTo(JSON.readTree("{\"startKeyGroup\":0,\"endKeyGroup\":31}"));
        assertThat(HookJson.parseSnapshotResult("{\"location\":\"a\",\"sizeBytes\":1,"
                + "\"operatorStateMode\":\"SPLIT_DISTRIBUTE\"}").operatorStateMode())
                .isEqualTo(OperatorStateMode.SPLIT_DISTRIBUTE);
    }

    @Test
    void shouldDeclareNeitherWhenAResultWrittenBeforeRescalingLacksTheFields() throws Exception {
        SnapshotResult result = HookJson.parseSnapshotResult("{\"location\":\"a\",\"sizeBytes\":1}");

        assertThat(result.keyGroups()).isNull();
        assertThat(result.operatorStateMode()).isNull();
        assertThat(JSON.readTree(HookJson.snapshotResult(result)).has("keyGroups")).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "'\"keyGroups\":5'                                              | field keyGroups must be an object, was 5",
        "'\"keyGroups\":{\"endKeyGroup\":3}'                           | missing field keyGroups.startKeyGroup",
        "'\"keyGroups\":{\"startKeyGroup\":4}'                         | missing field keyGroups.endKeyGroup",
        "'\"keyGroups\":{\"startKeyGroup\":-1,\"endKeyGroup\":3}'     | "
                + "field keyGroups.startKeyGroup must be an integer >= 0, was -1",
        "'\"keyGroups\":{\"startKeyGroup\":4,\"endKeyGroup\":3}'      | "
                + "field keyGroups.endKeyGroup must be an integer >= keyGroups.startKeyGroup (4)",
        "'\"keyGroups\":{\"startKeyGroup\":\"4\",\"endKeyGroup\":5}'  | "
                + "field keyGroups.startKeyGroup must be an integer, was \"4\"",
        "'\"keyGroups\":{\"startKeyGroup\":0,\"endKeyGroup\":3000000000}' | "
                + "field keyGroups.endKeyGroup is too large: 3000000000",
        "'\"operatorStateMode\":\"BROADCAST\"'                         | "
                + "field operatorStateMode must be one of [SPLIT_DISTRIBUTE, UNION], was \"BROADCAST\"",
        "'\"operatorStateMode\":1'                                      | "
                + "field operatorStateMode must be one of [SPLIT_DISTRIBUTE, UNION], was 1",
    })
    void shouldNameTheFieldWhenWhatAResultDeclaresIsMalformed(String declared, String problem) {
        String body = "{\"location\":\"s\",\"sizeBytes\":1," + declared + "}";

        assertThatThrownBy(() -> HookJson.parseSnapshotResult(body))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "'\"location\":\"a\",\"sizeBytes\":1,\"parallelism\":0'         | field parallelism must be an integer >= 1",
        "'\"location\":\"a\",\"sizeBytes\":1,\"previousParallelism\":2' | missing field parallelism",
        "'\"parallelism\":2,\"previousParallelism\":2,\"states\":[]'    | missing field location",
        "'\"parallelism\":2,\"previousParallelism\":-1,\"states\":[]'   | "
                + "field previousParallelism must be an integer >= 0, was -1",
        "'\"parallelism\":3,\"previousParallelism\":2,\"states\":[null]' | field states[0] must be an object",
        "'\"parallelism\":3,\"previousParallelism\":2,\"states\":[{\"fromSubtask\":-2,\"location\":\"a\","
                + "\"sizeBytes\":1}]' | field states[0].fromSubtask must be an integer >= -1, was -2",
        "'\"parallelism\":3,\"previousParallelism\":2,\"states\":[{\"fromSubtask\":0,\"sizeBytes\":1}]' | "
                + "missing field states[0].location",
        "'\"parallelism\":3,\"previousParallelism\":2,\"states\":[{\"fromSubtask\":0,\"location\":\"a\","
                + "\"sizeBytes\":1,\"operatorStateMode\":\"ALL\"}]' | "
                + "field states[0].operatorStateMode must be one of [SPLIT_DISTRIBUTE, UNION]",
        "'\"parallelism\":3,\"previousParallelism\":2,\"states\":[{\"fromSubtask\":0,\"location\":\"a\","
                + "\"sizeBytes\":1,\"keyGroups\":{\"startKeyGroup\":9,\"endKeyGroup\":1}}]' | "
                + "field states[0].keyGroups.endKeyGroup must be an integer >= states[0].keyGroups.startKeyGroup (9)",
        "'\"parallelism\":3,\"previousParallelism\":2,\"states\":[{\"fromSubtask\":0,\"location\":\"a\","
                + "\"sizeBytes\":1,\"shared\":[{\"location\":\"b\"}]}]' | missing field states[0].shared[0].sizeBytes",
        "'\"parallelism\":3,\"previousParallelism\":2,\"states\":{}'    | field states must be an array",
    })
    void shouldNameTheFieldWhenARestoreBodyIsMalformed(String fields, String problem) {
        String body = "{\"checkpointId\":5," + fields + "}";

        assertThatThrownBy(() -> HookJson.parseRestore(body))
                .isInstanceOf(MalformedHookMessageException.class).hasMessageContaining(problem);
    }
}
