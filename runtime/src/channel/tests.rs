//! Paddle's `channel_test.cc` (2018, final version; list in
//! `research/paddle-csp.md` §3), ported case by case to this module, with OS
//! threads as the parked party as in the original. Adapted to Go semantics
//! where fluidc differs (docs/programs.md): closing twice is an error, and a send on a closed
//! channel is an error (Paddle threw too). Paddle's "destroy unblocks" cases
//! have no Rust counterpart (a channel cannot be freed while a thread uses
//! it); their intent, that nobody stays blocked, is what the close cases
//! check, and `dropping_a_channel_frees_its_waiters` checks the cleanup.
//! The `ChannelHolder` cases (element type checks, uninitialized holders)
//! concern the runtime's typed wrapper and are tested as programs in
//! `tests/channels.rs`.
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::{self, Thread};
use std::time::Duration;

use super::*;

type Chan = Channel<i32, Thread>;

/// A new waiter for one operation.
fn fresh() -> Arc<Waiter<i32, Thread>> {
    Arc::new(Waiter::default())
}

/// Parks the current thread until `w` is claimed.
fn block(w: Arc<Waiter<i32, Thread>>) -> Completion<i32> {
    if w.park(thread::current()).is_ok() {
        while !w.is_claimed() {
            thread::park();
        }
    }
    w.take_completion()
        .expect("a claimed waiter has a completion")
}

fn wake(p: Option<Thread>) {
    if let Some(t) = p {
        t.unpark();
    }
}

fn finish(a: Attempt<i32, Thread>, w: Arc<Waiter<i32, Thread>>) -> Completion<i32> {
    match a {
        Attempt::Done(c, p) => {
            wake(p);
            c
        }
        Attempt::Blocked => block(w),
        Attempt::Default => panic!("no default case here"),
    }
}

/// Why a blocking send failed: the channel was closed.
#[derive(Debug, PartialEq)]
struct SendOnClosed;

/// A blocking send; `Err` is "send on closed channel".
fn send(ch: &Chan, v: i32) -> Result<(), SendOnClosed> {
    let w = fresh();
    match finish(ch.send(v, &w), w).outcome {
        Outcome::Sent => Ok(()),
        Outcome::Closed => Err(SendOnClosed),
        Outcome::Received(_) => panic!("a send does not receive"),
    }
}

/// A blocking receive; `None` is "closed and drained" (status false).
fn recv(ch: &Chan) -> Option<i32> {
    let w = fresh();
    match finish(ch.recv(&w), w).outcome {
        Outcome::Received(v) => Some(v),
        Outcome::Closed => None,
        Outcome::Sent => panic!("a receive does not send"),
    }
}

fn close(ch: &Chan) -> Result<(), AlreadyClosed> {
    ch.close()?.into_iter().for_each(|t| t.unpark());
    Ok(())
}

/// Whether a send completes without blocking.
fn try_send(ch: &Chan, v: i32) -> bool {
    match select(
        &mut [Case {
            channel: ch,
            send: Some(v),
        }],
        &[0],
        true,
        &fresh(),
    ) {
        Attempt::Done(c, p) => {
            wake(p);
            c.outcome == Outcome::Sent
        }
        _ => false,
    }
}

fn settle() {
    thread::sleep(Duration::from_millis(50));
}

#[test]
fn channel_capacity_test() {
    assert_eq!(Chan::new(10).capacity(), 10);
    assert_eq!(Chan::new(0).capacity(), 0);
}

#[test]
fn sufficient_buffer_size_doesnt_block() {
    let ch = Chan::new(10);
    for i in 0..10 {
        assert!(try_send(&ch, i), "send {i} blocked on a channel with room");
    }
    for i in 0..10 {
        assert_eq!(recv(&ch), Some(i));
    }
}

fn send_receive_closed(capacity: usize) {
    let ch = Arc::new(Chan::new(capacity));
    let c = ch.clone();
    let t = thread::spawn(move || send(&c, 5));
    assert_eq!(recv(&ch), Some(5));
    assert_eq!(t.join().expect("sender"), Ok(()));
    close(&ch).expect("first close");
    assert_eq!(send(&ch, 6), Err(SendOnClosed));
    assert_eq!(recv(&ch), None);
}

#[test]
fn send_receive_closed_buffered_channel_errors() {
    send_receive_closed(10);
}

#[test]
fn send_receive_closed_unbuffered_channel_errors() {
    send_receive_closed(0);
}

#[test]
fn receive_from_buffered_channel_returns_residual_values() {
    let ch = Chan::new(10);
    for i in 0..10 {
        send(&ch, i).expect("room");
    }
    for i in 0..5 {
        assert_eq!(recv(&ch), Some(i));
    }
    close(&ch).expect("close");
    for i in 5..10 {
        assert_eq!(recv(&ch), Some(i), "buffered values survive close");
    }
    assert_eq!(recv(&ch), None);
    assert_eq!(recv(&ch), None);
}

#[test]
fn concurrent_send_non_concurrent_receive_with_sufficient_buffer_size() {
    let ch = Arc::new(Chan::new(10));
    let sent = Arc::new(AtomicUsize::new(0));
    let (c, s) = (ch.clone(), sent.clone());
    let t = thread::spawn(move || {
        for i in 0..20 {
            if send(&c, i).is_ok() {
                s.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    settle();
    assert_eq!(sent.load(Ordering::SeqCst), 10, "10 fit, the 11th blocks");
    close(&ch).expect("close");
    t.join()
        .expect("sender ends: the blocked send fails, later ones too");
    assert_eq!(sent.load(Ordering::SeqCst), 10);
}

fn receiving_order_equals_sending_order(capacity: usize, n: i32, late_receiver: bool) {
    let ch = Arc::new(Chan::new(capacity));
    let c = ch.clone();
    let t = thread::spawn(move || {
        for i in 0..n {
            send(&c, i).expect("open");
        }
    });
    if late_receiver {
        settle();
    }
    let got: Vec<i32> = (0..n).map(|_| recv(&ch).expect("a value")).collect();
    assert_eq!(got, (0..n).collect::<Vec<_>>());
    t.join().expect("every send completes");
}

#[test]
fn receiving_order_equal_to_sending_order_with_unbuffered_channel() {
    receiving_order_equals_sending_order(0, 20, false);
}

#[test]
fn receiving_order_equal_to_sending_order_with_buffered_channel() {
    receiving_order_equals_sending_order(10, 5, true);
    receiving_order_equals_sending_order(10, 10, true);
    receiving_order_equals_sending_order(10, 20, true);
}

fn close_unblocks_receivers(capacity: usize) {
    let ch = Arc::new(Chan::new(capacity));
    let done = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..5)
        .map(|_| {
            let (c, d) = (ch.clone(), done.clone());
            thread::spawn(move || {
                let got = recv(&c);
                d.fetch_add(1, Ordering::SeqCst);
                got
            })
        })
        .collect();
    settle();
    assert_eq!(done.load(Ordering::SeqCst), 0, "receivers block");
    close(&ch).expect("close");
    for t in threads {
        assert_eq!(
            t.join().expect("receiver"),
            None,
            "status false after close"
        );
    }
}

#[test]
fn buffered_channel_close_unblocks_receivers() {
    close_unblocks_receivers(1);
}

#[test]
fn unbuffered_channel_close_unblocks_receivers() {
    close_unblocks_receivers(0);
}

/// Starts 5 blocking senders; returns how many completed before close and
/// the results after.
fn close_unblocks_senders(capacity: usize) -> (usize, Vec<Result<(), SendOnClosed>>) {
    let ch = Arc::new(Chan::new(capacity));
    let done = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..5)
        .map(|i| {
            let (c, d) = (ch.clone(), done.clone());
            thread::spawn(move || {
                let r = send(&c, i);
                d.fetch_add(1, Ordering::SeqCst);
                r
            })
        })
        .collect();
    settle();
    let before = done.load(Ordering::SeqCst);
    close(&ch).expect("close");
    let results = threads
        .into_iter()
        .map(|t| t.join().expect("sender"))
        .collect();
    (before, results)
}

#[test]
fn buffered_channel_close_unblocks_senders() {
    let (before, results) = close_unblocks_senders(1);
    assert_eq!(before, 1, "one send fits, four block");
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    assert_eq!(results.iter().filter(|r| r.is_err()).count(), 4);
}

#[test]
fn unbuffered_channel_close_unblocks_senders() {
    let (before, results) = close_unblocks_senders(0);
    assert_eq!(before, 0, "all five block");
    assert!(results.iter().all(|r| *r == Err(SendOnClosed)));
}

#[test]
fn unbuffered_less_receive_more_send() {
    let ch = Arc::new(Chan::new(0));
    let c = ch.clone();
    let sender = thread::spawn(move || (0..4).map(|i| send(&c, i)).collect::<Vec<_>>());
    for i in 0..3 {
        assert_eq!(recv(&ch), Some(i));
    }
    settle();
    close(&ch).expect("close");
    let results = sender.join().expect("sender");
    assert_eq!(results[..3], [Ok(()), Ok(()), Ok(())]);
    assert_eq!(results[3], Err(SendOnClosed));
}

#[test]
fn unbuffered_more_receive_less_send() {
    let ch = Arc::new(Chan::new(0));
    let sum = Arc::new(AtomicUsize::new(0));
    let (c, s) = (ch.clone(), sum.clone());
    let receiver = thread::spawn(move || {
        for _ in 0..8 {
            let v = recv(&c).expect("open");
            s.fetch_add(v as usize, Ordering::SeqCst);
        }
    });
    for i in 0..5 {
        send(&ch, i).expect("open");
    }
    settle();
    assert_eq!(sum.load(Ordering::SeqCst), 10, "0+1+2+3+4");
    for i in 5..8 {
        send(&ch, i).expect("open");
    }
    receiver.join().expect("receiver");
    assert_eq!(sum.load(Ordering::SeqCst), 28, "0+...+7");
}

#[test]
fn many_times_close() {
    // Paddle's ChannelHolderManyTimesCloseTest: senders, receivers and racing
    // closers all finish; under Go semantics exactly one close succeeds.
    let ch = Arc::new(Chan::new(10));
    let closes_ok = Arc::new(AtomicUsize::new(0));
    let mut threads = Vec::new();
    for i in 0..5 {
        let c = ch.clone();
        threads.push(thread::spawn(move || {
            let _ = send(&c, i);
        }));
        let c = ch.clone();
        threads.push(thread::spawn(move || {
            let _ = recv(&c);
        }));
        let (c, ok) = (ch.clone(), closes_ok.clone());
        threads.push(thread::spawn(move || {
            if close(&c).is_ok() {
                ok.fetch_add(1, Ordering::SeqCst);
            }
        }));
    }
    for t in threads {
        t.join().expect("every thread finishes");
    }
    assert!(ch.is_closed());
    assert_eq!(closes_ok.load(Ordering::SeqCst), 1);
    assert_eq!(close(&ch), Err(AlreadyClosed));
}

#[test]
fn dropping_a_channel_frees_its_waiters() {
    let ch = Chan::new(0);
    let w = fresh();
    let Attempt::Blocked = ch.send(1, &w) else {
        panic!("an unbuffered send with no receiver blocks");
    };
    assert_eq!(Arc::strong_count(&w), 2);
    drop(ch);
    assert_eq!(Arc::strong_count(&w), 1);
}

// ---- select, the other user of the waiter mechanism ----

fn recv_case(ch: &Chan) -> Case<'_, i32, Thread> {
    Case {
        channel: ch,
        send: None,
    }
}

#[test]
fn select_takes_the_first_ready_case_in_poll_order_or_default() {
    let (a, b) = (Chan::new(1), Chan::new(1));
    send(&a, 1).expect("room");
    send(&b, 2).expect("room");
    let Attempt::Done(c, _) = select(
        &mut [recv_case(&a), recv_case(&b)],
        &[1, 0],
        false,
        &fresh(),
    ) else {
        panic!("both are ready");
    };
    assert_eq!(
        c,
        Completion {
            case: 1,
            outcome: Outcome::Received(2)
        }
    );
    let empty = Chan::new(0);
    assert!(matches!(
        select(&mut [recv_case(&empty)], &[0], true, &fresh()),
        Attempt::Default
    ));
    // A full buffered channel: the send case is not ready.
    let full = Chan::new(1);
    send(&full, 0).expect("room");
    let mut cases = [Case {
        channel: &full,
        send: Some(9),
    }];
    assert!(matches!(
        select(&mut cases, &[0], true, &fresh()),
        Attempt::Default
    ));
}

#[test]
fn closed_channels_are_ready_in_select() {
    let ch = Chan::new(0);
    close(&ch).expect("close");
    let Attempt::Done(c, _) = select(&mut [recv_case(&ch)], &[0], true, &fresh()) else {
        panic!("a receive on a closed channel is ready");
    };
    assert_eq!(c.outcome, Outcome::Closed);
    let Attempt::Done(c, _) = select(
        &mut [Case {
            channel: &ch,
            send: Some(1),
        }],
        &[0],
        true,
        &fresh(),
    ) else {
        panic!("a send on a closed channel is ready (and an error)");
    };
    assert_eq!(c.outcome, Outcome::Closed);
}

/// A select receiving on `a` and `b` blocks with `w`; another thread sends
/// 7 on `b`, which completes it. Returns the completion.
fn select_won_on_b(a: &Arc<Chan>, b: &Arc<Chan>, w: &Arc<Waiter<i32, Thread>>) -> Completion<i32> {
    let Attempt::Blocked = select(&mut [recv_case(a), recv_case(b)], &[0, 1], false, w) else {
        panic!("nothing is ready");
    };
    let b2 = b.clone();
    let t = thread::spawn(move || send(&b2, 7));
    let c = block(w.clone());
    t.join().expect("sender").expect("delivered");
    c
}

#[test]
fn a_blocked_select_is_completed_once_and_its_stale_entry_is_skipped() {
    let (a, b) = (Arc::new(Chan::new(0)), Arc::new(Chan::new(0)));
    let w = fresh();
    // A sender on `b` completes the select ...
    assert_eq!(
        select_won_on_b(&a, &b, &w),
        Completion {
            case: 1,
            outcome: Outcome::Received(7)
        }
    );
    // ... and before it unregisters, a sender on `a` must skip the stale entry
    // and block instead of handing its value to a select that already won.
    assert!(!try_send(&a, 8), "the stale entry must not take the value");
    a.unregister(&w);
    b.unregister(&w);
    assert!(!try_send(&a, 8));
}

#[test]
fn close_wakes_a_blocked_select() {
    let ch = Arc::new(Chan::new(0));
    let other = Chan::new(0);
    let c = ch.clone();
    let closer = thread::spawn(move || {
        settle();
        close(&c).expect("close");
    });
    let w = fresh();
    let Attempt::Blocked = select(&mut [recv_case(&other), recv_case(&ch)], &[0, 1], false, &w)
    else {
        panic!("nothing is ready");
    };
    assert_eq!(
        block(w),
        Completion {
            case: 1,
            outcome: Outcome::Closed
        }
    );
    closer.join().expect("closer");
}

#[test]
fn a_select_with_no_cases_never_completes() {
    let w = fresh();
    let Attempt::Blocked = select::<i32, Thread>(&mut [], &[], false, &w) else {
        panic!("blocks forever");
    };
    assert!(!w.is_claimed());
}

#[test]
fn stress_select_against_senders_and_receivers() {
    // Two selects per round race against plain operations on the same two
    // channels; every value must be delivered exactly once.
    for round in 0..200 {
        let (a, b) = (Arc::new(Chan::new(round % 2)), Arc::new(Chan::new(0)));
        let total = Arc::new(AtomicUsize::new(0));
        let mut threads = Vec::new();
        for k in 0..2 {
            let (a, b, total) = (a.clone(), b.clone(), total.clone());
            threads.push(thread::spawn(move || {
                for _ in 0..10 {
                    let order = if k == 0 { [0, 1] } else { [1, 0] };
                    let mut cases = [recv_case(&a), recv_case(&b)];
                    let w = fresh();
                    let c = match select(&mut cases, &order, false, &w) {
                        Attempt::Done(c, p) => {
                            wake(p);
                            c
                        }
                        Attempt::Blocked => {
                            let c = block(w.clone());
                            a.unregister(&w);
                            b.unregister(&w);
                            c
                        }
                        Attempt::Default => panic!("no default case"),
                    };
                    let Outcome::Received(v) = c.outcome else {
                        panic!("channels stay open");
                    };
                    total.fetch_add(v as usize, Ordering::SeqCst);
                }
            }));
        }
        for ch in [a.clone(), b.clone()] {
            threads.push(thread::spawn(move || {
                for _ in 0..10 {
                    send(&ch, 1).expect("open");
                }
            }));
        }
        for t in threads {
            t.join().expect("no thread is lost");
        }
        assert_eq!(total.load(Ordering::SeqCst), 20, "round {round}");
    }
}

#[test]
fn a_finished_waiter_serves_the_next_operation() {
    // One waiter for a whole loop, as a goroutine keeps one: a select won on
    // `b`, unregistered and finished, then a receive on `a` with the same
    // waiter gets `a`'s value, not a stale claim.
    let (a, b) = (Arc::new(Chan::new(0)), Arc::new(Chan::new(0)));
    let w = fresh();
    assert_eq!(select_won_on_b(&a, &b, &w).outcome, Outcome::Received(7));
    a.unregister(&w);
    b.unregister(&w);
    assert!(w.finish().is_none(), "block took the completion");
    assert!(!w.is_claimed(), "finish makes the waiter ready again");
    let Attempt::Blocked = a.recv(&w) else {
        panic!("nobody sends on `a` yet");
    };
    let a2 = a.clone();
    let t = thread::spawn(move || send(&a2, 8));
    assert_eq!(block(w.clone()).outcome, Outcome::Received(8));
    t.join().expect("sender").expect("delivered");
    assert_eq!(Arc::strong_count(&w), 1, "no channel holds the waiter");
}

#[test]
fn a_finished_waiters_stale_entries_are_skipped_before_unregistering() {
    // A select won on `b` and finished but not yet unregistered from `a`,
    // then a receive on `b` with the same waiter: a sender on `a` must not
    // complete the new operation through the old entry.
    let (a, b) = (Arc::new(Chan::new(0)), Arc::new(Chan::new(0)));
    let w = fresh();
    assert_eq!(select_won_on_b(&a, &b, &w).outcome, Outcome::Received(7));
    assert!(w.finish().is_none(), "block took the completion");
    let Attempt::Blocked = b.recv(&w) else {
        panic!("nobody sends on `b` yet");
    };
    assert!(
        !try_send(&a, 8),
        "the stale entry on `a` must not take the value"
    );
    assert!(!w.is_claimed(), "the receive on `b` is still waiting");
    a.unregister(&w);
    let b2 = b.clone();
    let t = thread::spawn(move || send(&b2, 9));
    assert_eq!(block(w.clone()).outcome, Outcome::Received(9));
    t.join().expect("sender").expect("delivered");
}
