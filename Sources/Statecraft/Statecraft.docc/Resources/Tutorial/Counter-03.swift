import Statecraft

let store = Store(initialState: Counter.State()) {
  Counter(fact: { number in "\(number) is a good number." })
}

store.send(.incrementButtonTapped)  // reduced before `send` returns
print(store.count)  // 1: reading `count` observes `count` alone

await store.send(.factButtonTapped).finish()  // returns when the effect and its action are done
print(store.fact ?? "")  // "1 is a good number."
