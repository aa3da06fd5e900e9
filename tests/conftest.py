"""Test settings: Hypothesis without deadlines (the suite runs on busy machines), and
derandomized under CI so that a run is reproducible; run locally it explores afresh.

The markers of ``pyproject.toml`` are set here, so that no test has to remember them:
``browser`` on the tests under ``tests/web`` that start Chromium or the web server (those
that only read the client's files, such as its words, are in the quick run); ``postgres``
on every test that uses the ``postgres_schema`` fixture, runs with a ``postgresql``
parameter or has ``postgres`` in its name (``test_the_load_benchmark_runs_on_postgresql``
starts a server on it; a test about PostgreSQL's settings that opens no connection is
marked too, which costs nothing but its place in the quick run); ``slow`` on the
tests of :data:`SLOW`.  Run in several processes, the tests of :data:`ONE_SITE_AT_A_TIME`
go to one of them, one after the other (:func:`pytest_xdist_make_scheduler`).

``pytest -n 2 -m "not browser and not postgres and not slow"`` is the README's quick run.
"""

import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest
from hypothesis import settings
from xdist.remote import Producer
from xdist.scheduler import LoadScopeScheduling

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# The server's log lines go to pytest's handler on the root logger, into the report of the
# test that was running. A server in a thread that several tests share (the browser tests'
# server, a module's) also logs between two tests, above all ``loop_stalled`` when the busy
# test process held its loop up; with no handler of its own such a line would fall to
# Python's last-resort handler and be printed into the run's output outside any test.
logging.getLogger("rummykit").addHandler(logging.NullHandler())

WEB_TESTS = Path(__file__).resolve().parent / "web"
BROWSER_FIXTURES = frozenset({"playwright", "live_server"})
"""The fixtures that make a test under ``tests/web`` a browser test."""

ONE_SITE_AT_A_TIME = frozenset(
    {
        "tests/server/cluster/test_players_follow_their_table.py",
        "tests/server/cluster/test_worker_cuts.py",
        "tests/server/cluster/test_worker_partition.py",
        "tests/server/site/test_rolling_restart.py",
        "tests/server/site/test_service_restarts.py",
        "tests/server/site/test_workers.py",
    }
)
"""The files whose tests play a site of several worker processes through cuts, freezes,
kills and restarts, and hold its people's silences and errors to limits of wall time.
They run one at a time, all in one pytest-xdist process: two of them side by side on two
cores starved each other's workers of the CPU their heartbeats and leases need, and a
worker cut off for that reason is not what any of them is about.  The other tests share
the other processes meanwhile."""

SLOW: dict[str, tuple[str, ...]] = {
    "tests/server/competition/test_tournaments.py": (
        "test_an_event_starts_when_the_servers_clock_reaches_its_start",  # 3.4 s
        "test_a_swiss_event_of_sixteen_bots_on_postgresql",  # 24 s
        "test_an_elimination_event_of_three_player_tables",  # 7 s
        "test_a_swiss_event_of_four_bots_runs_to_the_end",  # 8 s
        "test_racing_registrations_never_overfill",  # 0.6 s
    ),
    "tests/server/bots/test_fair_share.py": (
        "test_a_players_tables_and_tournament_think_on_that_players_share",  # 10 s
        "test_a_stored_tournament_seats_its_bots_within_a_tournaments_limits",  # 4.5 s
    ),
    "tests/server/site/test_limits_at_once.py": (
        "test_forty_tournaments_at_once_make_exactly_the_limit",  # 1.4 s
        "test_a_guests_bot_budget_holds_against_forty_tables_at_once",  # 1.9 s
        "test_forty_table_creates_at_once_make_exactly_the_limit",  # 2.1 s
        "test_rematches_and_creates_at_once_make_exactly_the_limit",  # 6 to 7 s
        "test_forty_turn_based_creates_at_once_make_exactly_the_limit",  # 5 to 8 s
        "test_two_server_processes_keep_every_limit",  # two servers started: 20 s or more
    ),
    # games over days: whole games and restarts with a clock of days
    "tests/server/table/test_turn_based.py": (
        "test_time_out_then_a_stand_in_plays_the_move",  # 1.3 s
        "test_a_player_away_for_hours_keeps_their_seat",  # 1.2 s
        "test_a_restarted_server_keeps_the_clock_of_days",  # 6 s
        "test_burraco_for_four_the_late_sides_team_loses",  # 2 to 4 s
        "test_a_whole_game_against_a_bot",  # 3 s
        "test_time_out_then_the_win_is_claimed",  # 0.7 s
    ),
    # the engine: thousands of seeded playouts and cross-checks
    "tests/conformance/test_games.py": (),  # every test: 27 to 97 s each
    "tests/conformance/test_actor.py": (
        "test_the_mover_s_refusals_do_not_depend_on_hidden_cards",  # 4.5 s
        "test_only_the_player_to_move_is_answered_about_their_move",  # 2.6 s
    ),
    "tests/conformance/test_clone_cost.py": (
        "test_a_replay_keeps_the_same_memory_per_step_for_a_longer_record",  # 2.8 s
    ),
    "tests/burraco/test_playouts.py": (
        "test_random_playouts",  # 41 s
        "test_same_seed_same_game",  # 10.5 s
        "test_record_replays_the_game",  # 5.1 s
    ),
    "tests/burraco/test_melds_properties.py": (
        "test_candidates_against_brute_force_focused_hands",  # 15.7 s
        "test_candidates_against_brute_force_deck_hands",  # 14.9 s
        "test_extend_one_agrees_with_reference",  # 7.4 s
        "test_extend_several_is_some_order_of_single_extends",  # 4.2 s
        "test_arrange_agrees_with_reference",  # 4.2 s
        "test_candidates_edge_hands",  # 3.9 s
        "test_extending_cards_agrees_with_extend",  # 4.0 s
        "test_arrange_of_shuffled_meld_is_the_same",  # 3.0 s
        "test_table_walks_agree_with_reference",  # 2.4 s
        "test_long_runs_agree_with_reference",  # 2.1 s
    ),
    "tests/burraco/test_legal_options.py": (
        "test_extension_agrees_with_check",  # 4.2 s
        "test_legal_options_list_legal_actions",  # 1.7 s
    ),
    "tests/burraco/test_additions.py": (
        "test_legal_additions_equal_check_in_random_games",  # 3.6 s
        "test_additions_equal_extend_on_every_sub_multiset",  # 3.6 s
    ),
    "tests/burraco/test_dead_end.py": (
        "test_the_endgames_reach_every_kind_of_dead_end",  # 7.7 s
        "test_a_move_is_refused_as_a_dead_end_exactly_when_nothing_could_follow",  # 4.0 s
    ),
    "tests/burraco/test_determinize_stats.py": (
        "test_the_last_card_of_the_player_to_move_and_the_wilds_land_as_chance_would",  # 1.0 s
    ),
    "tests/three_thirteen/test_legal_options.py": (
        "test_listed_actions_are_those_check_accepts",  # 11.5 s
    ),
    "tests/three_thirteen/test_arrange_crosscheck.py": (
        "test_one_suit_hands_match_the_reference",  # 5.1 s
        "test_hands_larger_than_any_deal",  # 1.3 s
        "test_run_tables_match_the_reference",  # 1.2 s
        "test_property_matches_the_reference",  # 1.0 s
        "test_meldable_hands_match_the_reference",  # 6.6 s in all, 9 cases
        "test_full_round_eleven_hands",  # 0.7 s
    ),
    "tests/three_thirteen/test_playouts.py": (
        "test_random_playouts_keep_every_invariant",  # 3.6 s in all, 15 cases
    ),
    "tests/three_thirteen/test_arrange.py": (
        "test_answers_survive_the_memos_starting_afresh",  # 1.2 s
    ),
    "tests/three_thirteen/test_going_out_bound.py": (
        "test_property_matches_the_reference",  # 1.2 s
        "test_meld_built_hands_match_the_reference",  # 6.8 s in all, 16 cases
        "test_random_deals_match_the_reference",  # 3.5 s in all, 16 cases
    ),
    "tests/three_thirteen/test_observation.py": (
        "test_fuzzed_json_is_either_read_or_refused_with_value_error",  # 1.8 s
    ),
    "tests/test_observation_docs.py": (
        "test_every_event_class_of_a_game_is_emitted",  # 1.2 s
        "test_every_emitted_object_has_exactly_the_documented_fields",  # 4.8 s
        "test_every_documented_table_of_a_game_is_emitted",  # 1.8 s in all, 2 cases
    ),
    # the bots: whole games, and searches
    "tests/bots/test_inference.py": (
        "test_the_sampler_never_deals_a_card_that_cannot_be_there",  # 1.1 s
        "test_where_no_move_was_seen_the_deal_is_uniform",  # 2.0 s in all, 2 cases
        "test_expert_and_ismcts_with_inference_choose_alike_and_reproducibly",  # 1.6 s
    ),
    "tests/bots/test_ismcts.py": (
        "test_beats_random_at_three_thirteen",  # 24.8 s
        "test_beats_random_at_burraco",  # 7.6 s
        "test_three_thirteen_games_only_legal_moves",  # 6.7 s
        "test_three_thirteen_same_observation_same_action",  # 2.7 s
        "test_burraco_game_only_legal_moves",  # 2.6 s
        "test_three_thirteen_late_rounds_only_legal_moves",  # 1.7 s
        "test_three_thirteen_deterministic_with_iterations",  # 1.0 s
    ),
    "tests/bots/test_burraco_greedy.py": (
        "test_greedy_beats_random_in_quick_games",  # 7.1 s
        "test_plans_play_the_hand_by_the_rules",  # 2.7 s
        "test_greedy_hands_between_equals_end_by_closing",  # 1.5 s
        "test_any_position_reached_by_random_play",  # 1.3 s
    ),
    "tests/bots/test_three_thirteen_greedy.py": (
        "test_beats_the_random_bot_in_at_least_95_percent_of_games",  # 4.0 s
        "test_every_decision_is_legal_and_follows_the_rules",  # 1.8 s
        "test_memo_answers_match_brute_force",  # 1.7 s
    ),
    "tests/conformance/test_bots.py": (
        "test_bots_play_burraco_hands",  # 8.9 s
        "test_bots_play_three_thirteen_rounds",  # 5.8 s
    ),
    # the research environments: masks and vectors checked against the engine, step by step
    "tests/envs/test_player_view.py": (
        "test_three_thirteen_table_parts_are_the_view_s_fields_in_place",  # 44 s
        "test_view_is_the_observation_table_and_hides_the_same",  # 4.6 s
        "test_burraco_table_parts_are_the_view_s_fields_in_place",  # 2.2 s in all, 3 cases
    ),
    "tests/envs/test_openspiel.py": (
        "test_random_simulation_checks",  # 28.7 s
        "test_openspiel_ismcts_plays_a_game",  # 2.1 s
        "test_resampling_keeps_the_information_state",  # 1.7 s
    ),
    "tests/envs/test_incremental.py": (
        "test_burraco_kept_vectors_equal_fresh_ones",  # 19.6 s
        "test_three_thirteen_kept_vectors_equal_fresh_ones",  # 15.9 s
    ),
    "tests/envs/test_masks.py": (
        "test_burraco_masks_equal_engine_legality",  # 10.8 s
        "test_three_thirteen_masks_equal_engine_legality",  # 4.8 s
    ),
    "tests/envs/test_no_leak.py": (
        "test_hidden_cards_do_not_change_the_vector",  # 5.8 s
    ),
    "tests/envs/test_pettingzoo.py": (
        "test_same_seed_same_trajectory",  # 4.4 s
        "test_whole_games_end_with_zero_sum_rewards",  # 1.4 s
        "test_seed_test",  # 3.3 s in all, 6 cases
        "test_api_test",  # 1.8 s in all, 6 cases
        "test_burraco_every_live_agent_has_a_legal_action",  # 1.1 s
    ),
    "tests/envs/test_gymnasium.py": (
        "test_masked_episodes_end_and_replay_with_the_seed",  # 1.8 s in all, 5 cases
    ),
    "tests/envs/test_parallel.py": (
        "test_parallel_api_test",  # 4.5 s in all, 6 cases
        "test_parallel_plays_the_aec_game",  # 2.4 s in all, 6 cases
    ),
    # the simulator on Ray: a Ray cluster started for the module (42 s)
    "tests/sim/test_ray_backend.py": (),  # every test: up to 29 s each, after the start
    # the command line: whole games at a terminal, every README command
    "tests/cli/test_terminal.py": (
        "test_a_whole_game_at_an_80_by_24_terminal",  # 65 s
        "test_a_spinner_turns_while_a_searching_bot_thinks",  # 3.9 s
    ),
    "tests/cli/test_readme.py": (
        "test_each_readme_command_runs",  # 25 s
    ),
    # bot events and ladders from the command line
    "tests/cli/test_tournament_command.py": (
        "test_a_swiss_event_of_sixteen_bots_runs_to_the_end",  # 6.1 s
    ),
    "tests/cli/test_ladder_command.py": (
        "test_the_same_command_gives_the_same_ladder",  # 1.1 s
        "test_the_levels_stand_in_order_with_their_own_intervals_apart",  # 4.8 s
        "test_random_is_at_the_bottom_with_intervals_apart",  # 5.2 s in all, 3 cases
        "test_an_outside_bot_of_a_few_lines_enters_the_benchmark_by_module_and_factory",  # 8.5 s
        "test_an_outside_bot_that_overruns_is_reported",  # 2.4 s
        "test_bad_benchmark_input_is_one_line_and_exit_code_2",  # 1.0 s for a bot's start
    ),
    # bots from outside the package: a process started for each game
    "tests/sim/test_entrants.py": (),  # every test: 0.5 to 1.5 s each
    "tests/envs/test_benchmark_entrant.py": (),  # every test: 12 s and 1.0 s
    # the server: whole games, processes killed and restarted, bot workers killed
    "tests/server/bots/test_bot_crash.py": (),  # every test: 47 s and 9.5 s
    "tests/server/storage/test_crash_points.py": (),  # every test: 41 s on SQLite
    "tests/server/storage/test_recovery_process.py": (),  # every test: 16 s each
    "tests/server/table/test_seat_binding.py": (),  # every test: 3.4 to 8.2 s each
    "tests/server/table/test_whole_games.py": (),  # every test: 2.5 and 12.9 s
    "tests/server/site/test_workers.py": (),  # every test: three server processes, 31 s
    "tests/server/cluster/test_worker_partition.py": (),  # every test: two server processes, 18 s
    "tests/server/cluster/test_worker_cuts.py": (),  # every cut: two server processes, 45-100 s
    "tests/server/cluster/test_cluster_lobby.py": (),  # every test: two servers, 2.6 to 6.2 s
    "tests/server/cluster/test_bot_stream.py": (),  # every test: a server and bot workers, 8.3 s
    "tests/server/cluster/test_bot_worker_command.py": (),  # every test: bot workers, 4.2 and 10 s
    "tests/server/accounts/test_connection_limits.py": (),  # every test: one server, 22 s to start
    "tests/server/table/test_fuzz.py": (),  # every test: 7.9 s
    "tests/server/site/test_load_benchmark.py": (),  # every test: 21 s
    "tests/server/bots/test_worker_pool.py": (
        "test_every_call_in_flight_is_run_again",  # 1.7 s
        "test_a_call_that_always_kills_its_worker_gives_up",  # 1.3 s
    ),
    "tests/server/operations/test_request_log.py": (
        "test_sockets_closed_normally_are_not_logged",  # 2.5 s in all, 6 real servers
        "test_the_server_logs_its_own_failed_requests",  # 1.3 s
        "test_a_post_dropped_before_its_answer_is_logged",  # 0.7 s
        "test_a_get_dropped_before_its_answer_is_logged",  # 0.7 s
    ),
    "tests/server/api/test_replay_api.py": (
        "test_a_running_game_is_replayed_for_its_players_then_for_anyone",  # 1.7 s
    ),
    "tests/server/bots/test_bot_limits.py": (
        "test_finished_tables_no_longer_count",  # 7.8 s
        "test_bad_levels_are_a_typed_400",  # 2.3 s
    ),
    "tests/server/competition/test_review_limits.py": (
        "test_a_second_review_is_refused_while_the_first_runs",  # 6.2 s
    ),
    "tests/server/competition/test_review.py": (
        "test_review_of_a_finished_game",  # 3.7 s
        "test_review_refusals",  # 0.8 s
    ),
    "tests/server/competition/test_review_agrees_with_hint.py": (
        "test_the_hint_with_the_games_own_budget_agrees_with_the_review",  # 8 s
        "test_the_review_suggests_the_hints_move_at_recorded_positions",  # 1 to 2.7 s each
        "test_the_hints_seed_is_made_of_the_observation_and_the_commitment_only",  # 0.8 s
    ),
    "tests/server/storage/test_persistence.py": (
        "test_a_restarted_server_resumes_the_table",  # 3.7 s
        "test_stored_actions_reach_the_sqlite_file_itself",  # 1.2 s
    ),
    "tests/server/table/test_play.py": (
        "test_three_thirteen_against_a_bot_to_the_end",  # 3.2 s
        "test_verify_checks_the_commitment_and_the_actions",  # 2.3 s
    ),
    "tests/server/protocol/test_error_codes.py": (
        "test_only_game_over_is_also_an_engine_refusal",  # 3.1 s
    ),
    "tests/server/api/test_lobby.py": (
        "test_register_login_and_throttle",  # 2.7 s
    ),
    "tests/server/accounts/test_http_hardening.py": (
        "test_a_private_table_is_read_only_with_a_seat_or_its_token",  # 1.0 s
        "test_table_ids_are_checked_before_the_database",  # 2.5 s
        "test_every_answer_has_the_security_headers",  # 2.2 s, and 1.3 s to set up
        "test_every_route_that_takes_a_body_refuses_one_over_the_limit",  # 0.7 s
    ),
    # the client's type declarations: rendered from the server's schemas three times
    "tests/test_client_types.py": (
        "test_the_check_option_reports_a_stale_file",  # 2.5 s
    ),
    # the quick run's tests of a second or more on a slower machine (2026-12-07, two cores,
    # the quick run alone): figures of all a test's cases together
    "tests/server/notify/test_push.py": (
        "test_an_endpoint_that_is_no_public_https_address_is_refused",  # 6.1 s
        "test_a_name_that_looks_up_to_a_private_address_is_refused",  # 0.7 s
        "test_a_push_message_is_encrypted_for_the_subscription_and_signed_by_the_site",  # 0.6 s
    ),
    "tests/cli/test_host_logs.py": (
        "test_ctrl_c_as_soon_as_the_bot_worker_says_so_stops_it",  # 5.6 s
        "test_ctrl_c_stops_the_bot_worker_with_no_traceback",  # 2.9 s
        "test_ctrl_c_stops_serve_with_no_traceback",  # 2.0 s
        "test_info_in_the_environment_prints_the_tables_events",  # 1.9 s
        "test_warning_in_the_environment_prints_no_table_event",  # 1.9 s
    ),
    "tests/server/competition/test_assessment_jobs.py": (
        "test_each_persons_seat_of_a_rated_game_is_assessed_once_by_racing_processes",  # 4.3 s
        "test_the_command_line_gives_the_servers_figures_from_the_games_record",  # 4.3 s
        "test_a_player_past_the_thresholds_is_reported_once_and_only_moderators_see_it",  # 3.1 s
        "test_the_background_loop_assesses_a_game_once_it_is_over",  # 1.1 s
        "test_a_claim_left_by_a_dead_process_is_taken_over_once_its_lease_runs_out",  # 1.0 s
        "test_a_moderator_sees_the_partner_evidence_that_reports_a_player_at_four",  # 0.8 s
    ),
    "tests/three_thirteen/test_own_arrangement.py": (
        "test_what_every_seat_is_shown_in_played_games",  # 3.0 s
    ),
    "tests/server/table/test_fair_play.py": (
        "test_no_hint_at_a_rated_table_however_often_asked",  # 2.7 s
        "test_no_hint_at_a_tournament_table",  # 2.4 s
        "test_whole_games_with_a_substitute_and_a_bot_tell_nobody_a_reason",  # 1.7 s
        "test_a_casual_table_still_gives_hints",  # 0.8 s
    ),
    "tests/server/competition/test_tournament_pairs.py": (
        "test_pairs_register_together_and_play_duplicate_deals",  # 2.7 s
        "test_a_knockout_of_computer_pairs_runs_to_its_final",  # 2.6 s
        "test_nobody_joins_a_pair_uninvited_and_an_invitation_is_accepted",  # 0.6 s
    ),
    "tests/fairplay/test_assessment.py": (
        "test_a_seat_that_follows_the_search_matches_every_real_and_telling_choice",  # 2.3 s
        "test_at_four_each_decision_is_searched_again_with_the_partners_hand_known",  # 1.7 s
        "test_the_plain_player_the_search_starts_from_never_matches_a_telling_choice",  # 1.0 s
    ),
    "tests/server/accounts/test_moderation.py": (
        "test_the_command_line_grants_the_role",  # 2.2 s
    ),
    "tests/cli/test_serve_terminal.py": (
        "test_the_address_comes_once_ready_and_then_only_warnings",  # 1.9 s
        "test_verbose_shows_every_request",  # 1.8 s
    ),
    "tests/server/accounts/test_accounts.py": (
        "test_nicknames_with_markup_or_control_characters_are_refused",  # 1.7 s
    ),
    "tests/cli/test_fairplay_command.py": (
        "test_simulated_records_are_assessed_by_seat_and_pooled_by_player",  # 1.7 s
        "test_a_game_for_four_shows_each_seats_partner_evidence",  # 1.1 s
        "test_a_bad_record_is_named_and_the_others_are_still_assessed",  # 0.9 s
    ),
    "tests/server/api/test_rematch.py": (
        "test_forty_rematch_requests_at_once_make_one_rematch",  # 1.1 s
        "test_a_rematch_against_the_computer",  # 1.6 s
        "test_a_rematch_between_people_is_offered_to_the_other_player",  # 0.8 s
        "test_a_player_a_seat_is_kept_for_finds_the_rematch_and_joins_without_its_link",  # 0.7 s
    ),
    "tests/web/test_translations.py": (
        "test_refusals_met_in_play_are_known_and_render",  # 1.5 s
    ),
    "tests/server/table/test_four_seats.py": (
        "test_four_people_partners_by_seat_rated_as_teams_replayed_and_rematched",  # 1.5 s
    ),
    "tests/server/table/test_clocks.py": (
        "test_a_long_turn_draws_on_the_bank_then_the_stand_in_plays",  # 1.0 s
        "test_a_substitute_never_takes_a_large_burraco_pile",  # 1.4 s
        "test_a_table_of_people_gets_the_default_turn_time_and_bank",  # 0.6 s
    ),
    "tests/server/notify/test_mail.py": (
        "test_a_host_without_smtp_or_push_offers_the_page_only",  # 0.9 s
        "test_a_verified_address_is_told_of_a_game_end_in_the_players_language",  # 1.3 s
        "test_unsubscribing_needs_no_session_and_works_only_for_its_own_address",  # 0.9 s
        "test_turn_based_tables_queue_your_turn_and_time_low_for_seated_players_only",  # 0.8 s
        "test_a_game_sends_one_email_a_day_unless_the_player_asks_for_more",  # 0.7 s
        "test_a_player_has_five_verification_mails_a_day_at_most",  # 0.6 s
    ),
    "tests/server/accounts/test_account_links.py": (
        "test_a_malformed_browser_cookie_is_replaced",  # 1.1 s
        "test_a_second_account_of_one_browser_may_not_sit_at_a_rated_table",  # 0.9 s
    ),
    "tests/server/accounts/test_names.py": (
        "test_a_guest_may_not_pass_for_a_computer_player",  # 1.1 s
    ),
    "tests/server/api/test_turn_based_lobby.py": (
        "test_current_games_put_your_turn_first_then_by_time_left",  # 1.6 s
        "test_nobody_claims_or_hands_over_at_another_table",  # 1.0 s
        "test_the_limit_of_turn_based_games_holds_apart_from_live_tables",  # 0.8 s
    ),
    "tests/server/protocol/test_strict_messages.py": (
        "test_the_table_socket_refuses_numbers_as_text_and_goes_on",  # 1.0 s
    ),
    "tests/server/api/test_rated_tables.py": (
        "test_a_player_who_left_stays_away_after_a_restart",  # 0.9 s
        "test_a_rated_game_rates_its_players_and_shows_on_the_boards",  # 1.3 s
        "test_who_plays_rated_tables",  # 0.8 s
        "test_a_private_rated_game_counts_but_is_not_named_on_the_profile",  # 0.7 s
    ),
    # the quick run's tests of about 0.6 s or more on two cores (2026-12-08, the quick run
    # alone), so that it stays under a minute
    "tests/server/table/test_vacations.py": (
        "test_a_declared_vacation_stops_the_clock_and_the_others_see_it",  # 1.9 s
        "test_days_are_taken_when_time_would_run_out_then_the_time_runs_out",  # 0.7 s
    ),
    "tests/server/api/test_http_edges.py": (
        "test_malformed_http_is_a_typed_400_with_the_security_headers",  # 1.7 s
    ),
    "tests/bots/test_ismcts_pinned.py": (
        "test_search_answers_are_pinned",  # 1.7 s
    ),
    "tests/server/notify/test_wiring.py": (
        "test_a_turn_based_turn_and_its_time_running_low_notify_the_player_to_move",  # 1.1 s
        "test_a_turn_whose_notice_was_never_queued_is_told_by_the_tables_next_host",  # 0.7 s
        "test_a_tournaments_round_and_a_pairs_invitation_notify_their_players",  # 0.7 s
        "test_a_games_end_and_its_rematch_notify_the_players_at_the_table",  # 0.6 s
    ),
    "tests/server/table/test_seed_text.py": (
        "test_verify_and_replay_take_the_seed_as_text_and_as_a_number",  # 1.0 s
    ),
    "tests/server/notify/test_hostile_requests.py": (
        "test_a_nasty_string_anywhere_is_a_typed_refusal_and_changes_nothing",  # 0.9 s
    ),
    "tests/server/cluster/test_redis_sockets.py": (
        "test_a_dead_worker_s_sockets_lapse_and_a_live_one_s_are_renewed",  # 0.8 s
    ),
    "tests/test_game_name_branches.py": (
        "test_no_branch_on_a_game_name_outside_its_own_modules",  # 0.8 s
    ),
    "tests/server/table/test_abandonment.py": (
        "test_only_a_present_player_of_another_side_claims",  # 0.8 s
        "test_a_player_whose_turns_a_stand_in_plays_is_gone_and_the_game_aborts",  # 0.7 s
        "test_a_game_every_person_left_is_aborted_unrated",  # 0.7 s
    ),
    "tests/burraco/test_four_players_properties.py": (
        "test_random_four_player_hands_keep_the_team_rules",  # 0.8 s
    ),
    "tests/cli/test_play.py": (
        "test_four_players_at_the_terminal_see_their_team",  # 0.6 s
    ),
}
"""The slow tests: for each file, the names of its slow tests (every case of each), or
``()`` when every test of the file is slow.

Measured with ``pytest -p no:xdist --durations=40`` (the engine, bots and envs, a
directory at a time) and ``--durations=0 --durations-min=1`` (the command line, the
server and the simulator, a file at a time), on two cores shared with other work: load
average 3 to 11, where a test's wall time was up to three times its CPU time.  The
figure after each is the slowest case's wall time then (or all its cases' together).
A test is listed from about a second, or when its cases take that much in all, so
that the quick run stays under a minute on two cores: the engine's cross-checks and
playouts and the bots' whole games went first; the server's own tests mostly stay.
The last entries, from about 0.6 s, were measured in the quick run itself (two
processes on two cores, so each figure is about twice the test's time alone), which
took 66 s before they left it.
"""


LONG_BROWSER_TESTS: dict[str, tuple[str, ...]] = {
    "tests/web/test_play_three_thirteen.py": (
        "test_a_whole_three_thirteen_game_against_a_bot",  # 233 s
    ),
    "tests/web/test_phone_long_games.py": (),  # every test: 27 to 101 s
    "tests/web/test_motion.py": (
        "test_cards_travel_through_a_whole_game_and_leave_nothing_behind",  # 98 s
    ),
    "tests/web/test_play_burraco.py": (
        "test_a_whole_quick_burraco_hand_against_a_bot",  # 84 s
    ),
    "tests/web/test_replay_moves.py": (
        "test_the_replay_lists_the_moves_and_names_its_buttons",  # 79 s
    ),
    "tests/web/test_review.py": (
        "test_the_review_shows_intervals_and_calls_only_marked_decisions_mistakes",  # 62 s
    ),
    "tests/web/test_hint_target.py": (),  # every test: 36 to 52 s
    "tests/web/test_turn_based.py": (
        "test_a_turn_based_table_from_the_dialog_to_the_count_of_your_turns",  # 50 s
    ),
    "tests/web/test_moderation.py": (),  # every test: 16 to 47 s
    "tests/web/test_phone_layout.py": (
        "test_four_players_on_a_phone_keep_the_hand_in_view",  # 39 s
    ),
    "tests/web/test_burraco_four.py": (),  # every test: 27 to 38 s
    "tests/web/test_screens.py": (),  # every test: 31 and 38 s
}
"""The longest browser tests, longest first (in the same form as :data:`SLOW`), which
go first of the browser tests: handed out last, one of them would keep the run going
on one process long after the others had ended.  Measured in a full run of
``pytest -n 4`` on two cores (2026-12-07), where a browser test took three to five
times its time alone."""


def is_slow(node_id: str, slow: Mapping[str, tuple[str, ...]] = SLOW) -> bool:
    """Whether the test ``node_id`` is one of ``slow`` (see :data:`SLOW`).

    >>> is_slow("tests/a.py::test_b[1]", {"tests/a.py": ("test_b",)})
    True
    >>> is_slow("tests/a.py::test_bc", {"tests/a.py": ("test_b",)})
    False
    >>> is_slow("tests/a.py::Case::test_c", {"tests/a.py": ()})
    True
    """
    file, _, rest = node_id.partition("::")
    if file not in slow:
        return False
    names = slow[file]
    return not names or rest.split("[")[0].split("::")[-1] in names


def browser_rank(node_id: str) -> int:
    """Where the browser test ``node_id`` goes among the others: its file's place in
    :data:`LONG_BROWSER_TESTS` if it is listed there, else after them all.

    >>> browser_rank("tests/web/test_phone_long_games.py::test_x[en]")
    1
    >>> browser_rank("tests/web/test_motion.py::test_a_card_moves")
    12
    """
    for rank, (file, names) in enumerate(LONG_BROWSER_TESTS.items()):
        if is_slow(node_id, {file: names}):
            return rank
    return len(LONG_BROWSER_TESTS)


def markers_of(
    path: Path, node_id: str, fixtures: Iterable[str], params: Mapping[str, object]
) -> set[str]:
    """The markers this module gives the test ``node_id`` (see the module docstring)."""
    markers = set()
    if path.is_relative_to(WEB_TESTS) and not BROWSER_FIXTURES.isdisjoint(fixtures):
        markers.add("browser")
    by_parameter = any(isinstance(v, str) and v.startswith("postgres") for v in params.values())
    by_name = "postgres" in node_id.partition("::")[2].split("[")[0]
    if by_parameter or by_name or "postgres_schema" in fixtures:
        markers.add("postgres")
    if is_slow(node_id):
        markers.add("slow")
    return markers


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The browser tests go last: their session's Playwright keeps an event loop running
    # in the process, where a later test's asyncio.run() would fail.  Within each group
    # the files with slow tests go first (each file kept whole, so that its shared set-up
    # is made once), and the longest browser tests first of theirs, so that the run does
    # not end waiting on a few long tests handed out last: pytest-xdist gives each process
    # the next tests as it frees up.
    slow_files = {item.nodeid.partition("::")[0] for item in items if is_slow(item.nodeid)}

    def place(item: pytest.Item) -> tuple[bool, int]:
        if Path(item.path).is_relative_to(WEB_TESTS):
            return True, browser_rank(item.nodeid)
        return False, int(item.nodeid.partition("::")[0] not in slow_files)

    items.sort(key=place)
    for item in items:
        callspec = getattr(item, "callspec", None)
        params = callspec.params if callspec is not None else {}
        fixtures = getattr(item, "fixturenames", ())
        for name in sorted(markers_of(item.path, item.nodeid, fixtures, params)):
            item.add_marker(getattr(pytest.mark, name))


class _SitesTogether(LoadScopeScheduling):
    """pytest-xdist's scheduling by scope, where every test is a scope of its own (as
    ``--dist load`` hands them out, in the order collected) except the tests of
    :data:`ONE_SITE_AT_A_TIME`, which form one scope, handed out first to one process.
    (``--dist loadgroup`` would group them by a mark, but it reads the mark from a test
    id that this pytest no longer lets a plugin change.)"""

    def _split_scope(self, nodeid: str) -> str:
        return "sites" if nodeid.partition("::")[0] in ONE_SITE_AT_A_TIME else nodeid


def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> _SitesTogether | None:
    """In place of ``--dist load``, pytest-xdist's default; any other ``--dist`` asked
    for is kept."""
    return _SitesTogether(config, log) if config.getvalue("dist") == "load" else None
