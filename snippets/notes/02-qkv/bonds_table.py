from transformer_figures import table_html
from transformer_math import preset, preset_weights

weights = preset_weights()
names = preset.DIM_NAMES

rows = []
for b in preset.BONDS:
    # bond = W_Q と W_K の同じ列 g にある 1.0 の組。ほかの列はすべて 0
    assert weights.W_Q[b.query_dim, b.column] == 1.0 and weights.W_K[b.key_dim, b.column] == 1.0
    head, k = divmod(b.column, weights.W_Q.shape[1] // weights.n_heads)  # 列 g = head·d_k + k
    rows.append(
        [
            b.name,
            f"W_Q[d{b.query_dim} {names[b.query_dim]}, g{b.column}] = 1",
            f"W_K[d{b.key_dim} {names[b.key_dim]}, g{b.column}] = 1",
            f"ヘッド {head}, 列 k = {k}",
        ]
    )

print(table_html(["bond", "W_Q の 0 でない成分", "W_K の 0 でない成分", "どこに入るか"], rows))
