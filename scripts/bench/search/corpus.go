package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A synthetic question bank: stems drawn from templates over a clinical
// vocabulary, so the texts share the vocabulary (and clinical filler) of a
// real bank and the index sees many near neighbours.
var (
	conditions = []string{"hypertension", "type 2 diabetes", "heart failure", "atrial fibrillation", "asthma",
		"COPD", "community acquired pneumonia", "pulmonary embolism", "deep vein thrombosis", "stroke",
		"myocardial infarction", "chronic kidney disease", "acute kidney injury", "cirrhosis", "hepatitis B",
		"pancreatitis", "appendicitis", "cholecystitis", "ulcerative colitis", "Crohn disease", "gout",
		"rheumatoid arthritis", "osteoarthritis", "osteoporosis", "hypothyroidism", "Graves disease",
		"Cushing syndrome", "Addison disease", "diabetic ketoacidosis", "hyperkalaemia", "hyponatraemia",
		"iron deficiency anaemia", "sickle cell disease", "thalassaemia", "lymphoma", "leukaemia",
		"breast cancer", "colorectal cancer", "lung cancer", "prostate cancer", "melanoma", "psoriasis",
		"eczema", "migraine", "epilepsy", "multiple sclerosis", "Parkinson disease", "dementia",
		"depression", "schizophrenia", "bipolar disorder", "anorexia nervosa", "urinary tract infection",
		"pyelonephritis", "meningitis", "sepsis", "tuberculosis", "HIV infection", "malaria",
		"pre-eclampsia", "gestational diabetes", "ectopic pregnancy", "placental abruption",
		"bronchiolitis", "croup", "Kawasaki disease", "febrile seizure", "pyloric stenosis",
		"intussusception", "glaucoma", "cataract", "otitis media", "sinusitis", "tonsillitis",
		"anaphylaxis", "aortic stenosis", "mitral regurgitation", "infective endocarditis", "pericarditis"}
	symptoms = []string{"chest pain", "shortness of breath", "fever", "cough", "headache", "abdominal pain",
		"vomiting", "diarrhoea", "weight loss", "fatigue", "palpitations", "syncope", "confusion",
		"jaundice", "haematuria", "joint pain", "rash", "back pain", "leg swelling", "night sweats",
		"polyuria", "blurred vision", "tremor", "weakness of the left arm", "dysphagia", "wheeze"}
	findings = []string{"An ECG shows ST elevation", "Chest X-ray shows consolidation", "Serum potassium is 6.8 mmol/L",
		"Haemoglobin is 8.2 g/dL", "CT shows a hypodense lesion", "Urinalysis shows nitrites",
		"Blood glucose is 28 mmol/L", "The troponin is raised", "Ultrasound shows gallstones",
		"Spirometry shows an FEV1/FVC ratio of 0.6", "The D-dimer is raised", "TSH is suppressed"}
	drugs = []string{"metformin", "insulin", "amlodipine", "ramipril", "bisoprolol", "furosemide",
		"spironolactone", "warfarin", "apixaban", "aspirin", "clopidogrel", "atorvastatin", "salbutamol",
		"prednisolone", "amoxicillin", "ceftriaxone", "vancomycin", "levothyroxine", "carbimazole",
		"allopurinol", "methotrexate", "lithium", "sertraline", "haloperidol", "levetiracetam",
		"morphine", "paracetamol", "ibuprofen", "omeprazole", "adrenaline"}
	populations = []string{"pregnancy", "a child", "an elderly patient", "a patient with renal impairment",
		"a patient with liver failure", "a breastfeeding mother", "a patient with asthma", "an athlete"}
	questions = []string{"What is the most likely diagnosis?", "What is the next best step in management?",
		"Which investigation is most appropriate?", "What is the most likely cause?"}
	sexes = []string{"man", "woman", "boy", "girl"}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// stem makes one question stem: a template and a random clinical context,
// so that exact duplicates are rare even at 100,000 stems.
func stem(r *rand.Rand) string {
	return template(r) + " " + setting(r)
}

func setting(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("She has a history of %s and takes %s.", pick(r, conditions), pick(r, drugs))
	case 1:
		return fmt.Sprintf("He has had %s for %d days.", pick(r, symptoms), 1+r.IntN(20))
	case 2:
		return fmt.Sprintf("%s. The patient also reports %s.", pick(r, findings), pick(r, symptoms))
	}
	return fmt.Sprintf("Past history includes %s; current medication is %s and %s.", pick(r, conditions),
		pick(r, drugs), pick(r, drugs))
}

func template(r *rand.Rand) string {
	switch r.IntN(6) {
	case 0, 1:
		return fmt.Sprintf("A %d-year-old %s presents with %s and %s. %s. %s", 18+r.IntN(70), pick(r, sexes),
			pick(r, symptoms), pick(r, symptoms), pick(r, findings), pick(r, questions))
	case 2:
		return fmt.Sprintf("Which drug is first-line for %s in %s?", pick(r, conditions), pick(r, populations))
	case 3:
		return fmt.Sprintf("What is the mechanism of action of %s, and which adverse effect is most typical in %s?",
			pick(r, drugs), pick(r, populations))
	case 4:
		return fmt.Sprintf("Management of %s complicated by %s in %s", pick(r, conditions), pick(r, conditions),
			pick(r, populations))
	}
	return fmt.Sprintf("Which finding best distinguishes %s from %s in a patient with %s?", pick(r, conditions),
		pick(r, conditions), pick(r, symptoms))
}

// options makes four answer options.
func options(r *rand.Rand) string {
	o := make([]string, 4)
	for i := range o {
		if r.IntN(2) == 0 {
			o[i] = pick(r, drugs)
		} else {
			o[i] = pick(r, conditions)
		}
	}
	return strings.Join(o, "\n")
}

// query makes a search a user might type: a topic, sometimes narrowed.
func query(r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return pick(r, conditions) + " treatment"
	case 1:
		return pick(r, conditions) + " in " + pick(r, populations)
	case 2:
		return pick(r, drugs) + " side effects"
	case 3:
		return pick(r, symptoms) + " " + pick(r, symptoms)
	}
	return pick(r, conditions)
}
