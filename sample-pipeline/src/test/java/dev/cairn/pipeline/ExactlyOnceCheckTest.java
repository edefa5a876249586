package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExactlyOnceCheckTest {

    private static ExactlyOnceCheck checkOf(long a, long b) {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("a", a);
        expected.put("b", b);
        return new ExactlyOnceCheck(expected);
    }

    private static void feed(ExactlyOnceCheck check, String key, long... counts) {
        for (long count : counts) {
            check.accept(key, Long.toString(count));
        }
    }

    @Test
    void shouldPassWhenEveryKeyCountsOneToItsEventsInOrderInterleaved() {
        ExactlyOnceCheck check = checkOf(3, 2);
        check.accept("a", "1");
        check.accept("b", "1");
        check.accept("a", "2");
        check.accept("b", "2");
        check.accept("a", "3");

        ExactlyOnceCheck.Report report = check.report();

        assertThat(report.passed()).as(report.toString()).isTrue();
        assertThat(report.keysChecked()).isEqualTo(2);
        assertThat(report.resultsRead()).isEqualTo(5);
        assertThat(check.reached()).isTrue();
    }

    @Test
    void shouldReportADuplicatedResultWithItsKeyAndWhatCameBefore() {
        ExactlyOnceCheck check = checkOf(3, 1);
        feed(check, "a", 1, 2, 2, 3);
        feed(check, "b", 1);

        ExactlyOnceCheck.Report report = check.report();

        assertThat(report.passed()).isFalse();
        assertThat(report.problemCount()).isEqualTo(1);
        assertThat(report.problems()).containsExactly("key a: duplicate result 2 after 2");
    }

    @Test
    void shouldReportAReplayedRunOfResultsAsDuplicates() {
        ExactlyOnceCheck check = checkOf(4, 1);
        feed(check, "a", 1, 2, 3, 2, 3, 4);
        feed(check, "b", 1);

        assertThat(check.report().problems()).containsExactly("key a: duplicate result 2 after 3",
                "key a: duplicate result 3 after 3");
    }

    @Test
    void shouldReportMissingResultsAsTheGapSeen() {
        ExactlyOnceCheck check = checkOf(5, 1);
        feed(check, "a", 1, 4, 5);
        feed(check, "b", 1);

        assertThat(check.report().problems()).containsExactly("key a: missing results 2..3 (saw 4 after 1)");
    }

    @Test
    void shouldReportAWrongFinalValueAndAKeyWithoutResults() {
        ExactlyOnceCheck check = checkOf(3, 2);
        feed(check, "a", 1, 2);

        ExactlyOnceCheck.Report report = check.report();

        assertThat(check.reached()).isFalse();
        assertThat(report.problems()).containsExactly("key a: final count 2, expected 3",
                "key b: final count none, expected 2");
    }

    @Test
    void shouldReportAnUnexpectedKeyAndAValueThatIsNotACount() {
        ExactlyOnceCheck check = checkOf(1, 1);
        feed(check, "a", 1);
        feed(check, "b", 1);
        check.accept("c", "1");
        check.accept("a", "two");

        assertThat(check.report().problems()).containsExactly("unexpected key c with value 1",
                "key a: value \"two\" is not a count");
    }

    @Test
    void shouldListTheFirstProblemsAndCountThemAll() {
        ExactlyOnceCheck check = checkOf(1, 1);
        feed(check, "b", 1);
        for (int i = 0; i < 30; i++) {
            feed(check, "a", 1);
        }

        ExactlyOnceCheck.Report report = check.report();

        assertThat(report.problemCount()).isEqualTo(29);
        assertThat(report.problems()).hasSize(ExactlyOnceCheck.LISTED);
        assertThat(report.toString()).startsWith("NOT exactly-once: 2 keys, 31 results read, 29 problem(s)");
    }
}
