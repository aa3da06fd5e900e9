"""The ports the tests' servers are given (``tests/kit/threaded.py``): a server killed by
one test process and started again on its port must find it free, so no other test
process may be given it meanwhile (a full run once restarted a killed server while
another process's server answered on its port)."""

from __future__ import annotations

import itertools
import socket

from tests.kit.threaded import FIRST_PORT, PORTS_PER_PROCESS, RANGES, free_port, own_ports


def test_each_test_process_has_ports_of_its_own_below_the_systems() -> None:
    ranges = [
        set(itertools.islice(own_ports(f"gw{index}"), PORTS_PER_PROCESS)) for index in range(RANGES)
    ]
    for index, ports in enumerate(ranges):
        assert len(ports) == PORTS_PER_PROCESS
        first = FIRST_PORT + index * PORTS_PER_PROCESS
        assert ports == set(range(first, first + PORTS_PER_PROCESS))
    with open("/proc/sys/net/ipv4/ip_local_port_range") as limits:
        assert max(max(ports) for ports in ranges) < int(limits.read().split()[0])


def test_a_port_comes_round_again_only_after_all_the_others() -> None:
    ports = list(itertools.islice(own_ports("gw1"), 2 * PORTS_PER_PROCESS))
    assert ports[:PORTS_PER_PROCESS] == ports[PORTS_PER_PROCESS:]
    assert len(set(ports[:PORTS_PER_PROCESS])) == PORTS_PER_PROCESS


def test_a_port_someone_listens_on_is_passed_over() -> None:
    taken = free_port()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", taken))
        listener.listen()
        given = [free_port() for _ in range(PORTS_PER_PROCESS)]  # once round, at least
    assert taken not in given
