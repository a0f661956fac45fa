/** The gradient header of a text page: its h1 and intro, centred. */
export function PageHeader({ heading, intro, tall = false }: { heading: string; intro: string; tall?: boolean }) {
  return (
    <section className={`bg-gradient-to-br from-brand-800 to-brand-950 py-16 text-center text-white ${tall ? 'sm:py-24' : 'sm:py-20'}`}>
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{heading}</h1>
        <p className="mt-5 text-lg text-white/90">{intro}</p>
      </div>
    </section>
  );
}
